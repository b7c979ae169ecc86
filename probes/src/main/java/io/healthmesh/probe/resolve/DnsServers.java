package io.healthmesh.probe.resolve;

import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** Parses a name server setting: an IP literal, with an optional port ({@code 10.0.0.2}, {@code 10.0.0.2:5353}, {@code [::1]:53}). */
final class DnsServers {

    private DnsServers() {
    }

    static InetSocketAddress parse(String server) {
        String text = server == null ? "" : server.trim();
        String host = text;
        int port = 53;
        if (text.startsWith("[")) {
            int end = text.indexOf(']');
            host = end < 0 ? "" : text.substring(1, end);
            String rest = end < 0 ? "" : text.substring(end + 1);
            if (rest.startsWith(":")) {
                port = port(server, rest.substring(1));
            } else if (!rest.isEmpty()) {
                host = "";
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = port(server, text.substring(text.indexOf(':') + 1));
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(host);
        if (bytes == null) {
            throw invalid(server);
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
        } catch (UnknownHostException e) {
            throw invalid(server);
        }
    }

    private static int port(String server, String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(server);
    }

    private static IllegalArgumentException invalid(String server) {
        return new IllegalArgumentException("dns.servers: '" + server
                + "' (expected: an IP address, optionally with :port, e.g. 10.0.0.2:53 or [::1]:53)");
    }
}
