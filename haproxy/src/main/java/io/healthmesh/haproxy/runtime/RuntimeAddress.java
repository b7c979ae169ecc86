package io.healthmesh.haproxy.runtime;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a HAProxy instance's Runtime API listens: a unix domain socket (an absolute path, as in
 * {@code stats socket /run/haproxy/admin.sock level admin}) or a TCP address ({@code host:port}, {@code [v6]:port}).
 *
 * @param socket the unix socket, or {@code null} for TCP
 * @param host the TCP host, or {@code null} for a unix socket
 * @param port the TCP port, 0 for a unix socket
 */
public record RuntimeAddress(Path socket, String host, int port) {

    private static final Pattern HOST_PORT = Pattern.compile("(?:\\[([0-9A-Fa-f:.]+)]|([A-Za-z0-9.-]+)):(\\d{1,5})");
    public static final String EXPECTED = "an absolute unix socket path, host:port or [IPv6]:port";

    /**
     * Parses an address as the mapping file writes it.
     *
     * @throws IllegalArgumentException when it is neither form
     */
    public static RuntimeAddress parse(String text) {
        if (text.startsWith("/")) {
            if (text.length() > 107 || text.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException(text + " (expected: a unix socket path of at most 107 characters)");
            }
            return new RuntimeAddress(Path.of(text), null, 0);
        }
        Matcher m = HOST_PORT.matcher(text);
        if (m.matches()) {
            int port = Integer.parseInt(m.group(3));
            if (port >= 1 && port <= 65_535) {
                return new RuntimeAddress(null, m.group(1) != null ? m.group(1) : m.group(2), port);
            }
        }
        throw new IllegalArgumentException(text + " (expected: " + EXPECTED + ")");
    }

    /** The address to connect to. */
    public SocketAddress socketAddress() {
        return socket != null ? UnixDomainSocketAddress.of(socket) : new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        if (socket != null) {
            return socket.toString();
        }
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
}
