package io.healthmesh.probe.http;

import io.netty.util.NetUtil;

import java.net.InetAddress;

/**
 * One request of an HTTP probe: where to connect and what to ask. The first hop comes from the target;
 * each followed redirect makes the next one.
 *
 * @param tls true for HTTPS
 * @param host the name the request is for (the configured Host, else the target address): Host header, SNI,
 *             certificate name and the base of relative redirects
 * @param address the resolved address to connect to
 * @param port TCP port
 * @param path request target: path and query
 * @param customHeaders whether the target's custom headers go with this request: true on the first hop, false
 *                      from the first redirect that changed the host or the port, or went from https to http, on
 *                      (so that an {@code Authorization} header never follows a redirect to another server)
 */
record HttpHop(boolean tls, String host, InetAddress address, int port, String path, boolean customHeaders) {

    /** A first hop: custom headers sent. */
    HttpHop(boolean tls, String host, InetAddress address, int port, String path) {
        this(tls, host, address, port, path, true);
    }

    /** The Host header: the host, bracketed when an IPv6 literal, with the port when it is not the scheme's default. */
    String authority() {
        if (NetUtil.isValidIpV6Address(host)) {
            String bracketed = host.startsWith("[") ? host : "[" + host + "]";
            return port == defaultPort(tls) ? bracketed : bracketed + ":" + port;
        }
        if (host.indexOf(':') >= 0) {
            return host; // a configured host that already names its port is sent as written
        }
        return port == defaultPort(tls) ? host : host + ":" + port;
    }

    String url() {
        return (tls ? "https://" : "http://") + authority() + path;
    }

    /** The name for SNI and certificate checks; IP literals carry no SNI (the JDK omits it). */
    String peerHost() {
        if (host.startsWith("[") && host.endsWith("]")) {
            return host.substring(1, host.length() - 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 || NetUtil.isValidIpV6Address(host) ? host : host.substring(0, colon);
    }

    static int defaultPort(boolean tls) {
        return tls ? 443 : 80;
    }
}
