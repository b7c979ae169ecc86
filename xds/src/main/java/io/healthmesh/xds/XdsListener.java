package io.healthmesh.xds;

import static java.util.Objects.requireNonNull;

/**
 * Where the xDS server listens and under which bounds. Every bound exists because an xDS client holds a stream for
 * its whole life: streams are capped in total and per connection (a past-the-cap stream is refused with
 * {@code RESOURCE_EXHAUSTED}, and the client retries with backoff), requests are capped in size, a connection that
 * carries no stream is closed after {@code idleMs}, dead peers are found by keepalive pings, and a peer that resets
 * streams faster than 200 per 10 s is disconnected.
 *
 * @param host bind address
 * @param port port (0 = any free port)
 * @param tls TLS identity and client authentication, or null for plaintext
 * @param maxStreams open streams at most, over every connection
 * @param maxStreamsPerConnection concurrent streams at most on one connection
 * @param maxRequestBytes largest request accepted
 * @param keepaliveMs interval of the server's pings on an idle connection
 * @param keepaliveTimeoutMs how long a ping may stay unanswered before the connection is closed
 * @param idleMs how long a connection without any stream is kept
 */
public record XdsListener(String host, int port, XdsTls tls, int maxStreams, int maxStreamsPerConnection,
                          int maxRequestBytes, long keepaliveMs, long keepaliveTimeoutMs, long idleMs) {

    public XdsListener {
        requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("xds.port: " + port + " (expected: 0..65535)");
        }
        if (maxStreams < 1 || maxStreamsPerConnection < 1 || maxRequestBytes < 1024) {
            throw new IllegalArgumentException("xds listener bounds: " + maxStreams + ", " + maxStreamsPerConnection
                    + ", " + maxRequestBytes + " (expected: >= 1, >= 1, >= 1024)");
        }
    }

    /** Loopback, any free port, plaintext, the default bounds (tests). */
    public static XdsListener loopback() {
        return new XdsListener("127.0.0.1", 0, null, XdsConfig.DEFAULT_MAX_STREAMS,
                XdsConfig.DEFAULT_MAX_STREAMS_PER_CONNECTION, XdsConfig.DEFAULT_MAX_REQUEST_BYTES, 30_000, 10_000,
                300_000);
    }

    /** This listener with other stream caps. */
    public XdsListener withStreams(int total, int perConnection) {
        return new XdsListener(host, port, tls, total, perConnection, maxRequestBytes, keepaliveMs, keepaliveTimeoutMs,
                idleMs);
    }

    /** This listener on another port. */
    public XdsListener withPort(int newPort) {
        return new XdsListener(host, newPort, tls, maxStreams, maxStreamsPerConnection, maxRequestBytes, keepaliveMs,
                keepaliveTimeoutMs, idleMs);
    }

    /** This listener with TLS. */
    public XdsListener withTls(XdsTls newTls) {
        return new XdsListener(host, port, newTls, maxStreams, maxStreamsPerConnection, maxRequestBytes, keepaliveMs,
                keepaliveTimeoutMs, idleMs);
    }
}
