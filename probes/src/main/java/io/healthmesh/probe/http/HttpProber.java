package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.egress.AddressGate;
import io.healthmesh.probe.tls.ClientTlsContexts;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.handler.codec.http.FullHttpRequest;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * HTTP and HTTPS: one fresh connection per request, {@code Connection: close}, HEAD or GET, the status
 * judged against the expected set and, for GET with {@code bodyContains}, the first body bytes searched.
 * Redirects (when on) are followed here, each hop checked against the egress policy again (another host is
 * resolved first); custom headers are not sent again once a redirect changed the host or the port or went from
 * https to http. A {@code Location} appears in a detail without its user info, query and fragment. The response
 * handling itself is {@link HttpResponseJudge}'s; each hop's connection is an {@link HttpExchange}.
 */
public final class HttpProber implements Prober {

    private final ProbeEngineConfig config;
    private final AddressGate gate;
    /** Every HTTPS hop's, and plain HTTP's off epoll. */
    private final HttpExchange overChannel;
    /** Plain HTTP's: without a channel where the transport allows it. */
    private final HttpExchange plain;

    HttpProber(ProbeEngineConfig config, ClientTlsContexts tls, AddressGate gate) {
        this(config, tls, gate, ProbeBootstraps.NIO);
    }

    /** {@code bootstraps}: the engine's, built with its transport and the source address. */
    public HttpProber(ProbeEngineConfig config, ClientTlsContexts tls, AddressGate gate, ProbeBootstraps bootstraps) {
        this.config = config;
        this.gate = gate;
        this.overChannel = new ChannelHttpExchange(config, tls, bootstraps, this);
        this.plain = bootstraps.checksWithoutChannel()
                ? ChannelFreeHttpExchange.from(bootstraps.localAddress(), config, this) : overChannel;
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        HttpSpec spec = probe.target().http();
        if (spec.bodyContains() != null && spec.method() == HttpMethod.HEAD) {
            probe.finish(Outcome.ERROR, "bodyContains needs method GET (a HEAD response has no body)");
            return;
        }
        ExpectedStatuses expected = ExpectedStatuses.parse(spec.expectedStatuses());
        // the domain: http.host, or 001's custom "host" header; none: the target's address (003)
        String host = spec.domain() != null && !spec.domain().isBlank() ? spec.domain() : probe.target().address();
        boolean https = probe.target().protocol() == Protocol.HTTPS;
        String path = spec.path() == null || spec.path().isEmpty() ? "/" : spec.path();
        connect(probe, new HttpHop(https, host, address, probe.target().port(), path), expected, 0);
    }

    private void connect(ProbeContext probe, HttpHop hop, ExpectedStatuses expected, int redirectsFollowed) {
        probe.beginHop();
        probe.phase(hop.tls() ? "connecting, then TLS handshake" : "connecting");
        FullHttpRequest request = HttpRequests.build(hop, probe.target().http(), config.userAgent(),
                sendsHost(probe, hop));
        (hop.tls() ? overChannel : plain).start(probe, hop, request, expected, redirectsFollowed);
    }

    /** False only for 002's rule: no configured domain, so the request to the target itself carries no Host. */
    private static boolean sendsHost(ProbeContext probe, HttpHop hop) {
        return !(probe.target().profile().omitsHostWithoutDomain() && probe.target().http().domain() == null
                && hop.host().equals(probe.target().address()));
    }

    int maxRedirects() {
        return config.maxRedirects();
    }

    /**
     * Whether the custom headers go on to the next hop: only while every redirect so far stayed on the same host
     * and port (an upgrade from http to https on the same host may change the port) and never from https to http.
     */
    static boolean keepsCustomHeaders(HttpHop from, String nextHost, boolean nextTls, int nextPort) {
        boolean sameHost = nextHost.equalsIgnoreCase(from.peerHost());
        boolean downgrade = from.tls() && !nextTls;
        boolean samePort = nextPort == from.port() || nextTls && !from.tls();
        return from.customHeaders() && sameHost && !downgrade && samePort;
    }

    /**
     * The host of an authority that {@link URI} did not take for a server name (it refuses numeric spellings such
     * as {@code 127.1} or {@code 0x7f.1}): these still go through the egress policy, which reads them as addresses.
     */
    static String hostOfAuthority(String authority) {
        if (authority == null) {
            return null;
        }
        String a = authority.substring(authority.lastIndexOf('@') + 1);
        if (a.startsWith("[")) {
            int close = a.indexOf(']');
            return close < 0 ? null : a.substring(0, close + 1);
        }
        int colon = a.lastIndexOf(':');
        return colon < 0 ? a : a.substring(0, colon);
    }

    static int portOfAuthority(String authority, boolean tls) {
        if (authority != null) {
            String a = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = a.lastIndexOf(':');
            if (colon > a.lastIndexOf(']')) {
                try {
                    int port = Integer.parseInt(a.substring(colon + 1));
                    if (port > 0 && port <= 65_535) {
                        return port;
                    }
                } catch (NumberFormatException e) {
                    // no usable port: the scheme's default
                }
            }
        }
        return HttpHop.defaultPort(tls);
    }

    /**
     * Called by the hop's {@link HttpResponseJudge} on a redirect status with a Location, with redirects on, once the
     * hop's connection is released.
     */
    void followRedirect(ProbeContext probe, HttpHop from, String location, ExpectedStatuses expected,
                        int redirectsFollowed) {
        if (redirectsFollowed >= config.maxRedirects()) {
            probe.finish(Outcome.TOO_MANY_REDIRECTS, "more than " + config.maxRedirects() + " redirects; next: "
                    + SafeLocation.of(location));
            return;
        }
        URI next;
        try {
            next = new URI(from.url()).resolve(new URI(location.trim()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "invalid redirect Location: " + SafeLocation.of(location));
            return;
        }
        String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
        String rawHost = next.getHost() != null ? next.getHost() : hostOfAuthority(next.getRawAuthority());
        if (!scheme.equals("http") && !scheme.equals("https") || rawHost == null || rawHost.isEmpty()) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "redirect to unsupported location: " + SafeLocation.of(location));
            return;
        }
        boolean nextTls = scheme.equals("https");
        int port = next.getPort() > 0 ? next.getPort() : portOfAuthority(next.getRawAuthority(), nextTls);
        String host = rawHost.startsWith("[") ? rawHost.substring(1, rawHost.length() - 1) : rawHost;
        String path = (next.getRawPath() == null || next.getRawPath().isEmpty() ? "/" : next.getRawPath())
                + (next.getRawQuery() == null ? "" : "?" + next.getRawQuery());
        boolean sameHost = host.equalsIgnoreCase(from.peerHost());
        boolean headers = keepsCustomHeaders(from, host, nextTls, port);
        if (sameHost) {
            // same name: stay on the target's address, so that a redirect cannot move the check to another backend;
            // the port may have changed, so the policy is asked again
            if (gate.allowed(probe, from.address(), port)) {
                connect(probe, new HttpHop(nextTls, from.host(), from.address(), port, path, headers), expected,
                        redirectsFollowed + 1);
            }
            return;
        }
        gate.resolveAllowed(probe, host, port, address ->
                connect(probe, new HttpHop(nextTls, host, address, port, path, headers), expected, redirectsFollowed + 1));
    }
}
