package io.healthmesh.dnsfollow.mapping;

import static java.util.Objects.requireNonNull;

/**
 * Where the primary server of a zone takes updates: a host (an IP literal or a host name the JVM resolves when it
 * connects) and a port.
 */
public record ServerAddress(String host, int port) {

    public static final int DEFAULT_PORT = 53;

    public ServerAddress {
        requireNonNull(host, "host");
        if (host.isEmpty() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("server: " + host + ":" + port + " (expected: host:port, port 1..65535)");
        }
    }

    /**
     * Parses {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}.
     *
     * @return the address, or null when the text is none of those
     */
    static ServerAddress parse(String text) {
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int end = text.indexOf(']');
            if (end < 2) {
                return null;
            }
            host = text.substring(1, end);
            String rest = text.substring(end + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return null;
                }
                port = rest.substring(1);
            }
        } else {
            int colon = text.indexOf(':');
            if (colon >= 0 && text.indexOf(':', colon + 1) >= 0) {
                return null; // a bare IPv6 literal would be ambiguous with a port: it needs brackets
            }
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
            return null;
        }
        int p = DEFAULT_PORT;
        if (port != null) {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                return null;
            }
            if (p < 1 || p > 65_535) {
                return null;
            }
        }
        return new ServerAddress(host, p);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
