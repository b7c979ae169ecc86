package io.healthmesh.prober;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The cluster's own endpoints that a prober must never probe (BEHAVIOUR.md section 9): the Kafka bootstrap servers, the
 * schema registry, this worker's own HTTP port and the operator's {@code deny.endpoints}. The probe engine
 * resolves them when it starts. Spellings only, never credentials: the registry URL's user info is dropped.
 */
final class ClusterEndpoints {

    private ClusterEndpoints() {
    }

    /** The {@code host:port} spellings for {@code config}, with this worker's endpoint on {@code opsPort}. */
    static List<String> of(ProberConfig config, int opsPort) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String server : config.bootstrapServers().split(",")) {
            String s = server.trim();
            int scheme = s.indexOf("://"); // listener-style spellings such as SASL_SSL://host:9093
            if (scheme >= 0) {
                s = s.substring(scheme + 3);
            }
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        out.addAll(registry(config.schemaRegistryUrl()));
        out.add(bracketed(config.httpHost()) + ":" + opsPort);
        out.addAll(config.deniedEndpoints());
        return new ArrayList<>(out);
    }

    /** {@code host:port} of each http(s) registry URL (comma-separated); none for {@code mem://} and the unparsable. */
    static List<String> registry(String url) {
        List<String> out = new ArrayList<>();
        for (String one : url.split(",")) {
            try {
                URI uri = new URI(one.trim());
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                    int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
                    out.add(bracketed(uri.getHost()) + ":" + port);
                }
            } catch (java.net.URISyntaxException e) {
                // not a URL: nothing to deny
            }
        }
        return out;
    }

    private static String bracketed(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
