package io.healthmesh.testkit.farm;

import io.healthmesh.core.target.Protocol;

import java.net.InetSocketAddress;

import static java.util.Objects.requireNonNull;

/**
 * One target of the farm: what a probe must be pointed at ({@code address}, {@code port} and, for HTTP,
 * {@code path}) and whether it currently answers. Switched only through {@link TargetFarm#setUp}.
 *
 * @param key stable name such as {@code tcp-12} or {@code http-3-7}
 * @param path the HTTP path, {@code null} for TCP and UDP
 */
public record FarmTarget(String key, Protocol protocol, String address, int port, String path) {

    public FarmTarget {
        requireNonNull(key, "key");
        requireNonNull(protocol, "protocol");
        requireNonNull(address, "address");
    }

    /** The listener's address and port. */
    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    /** {@code address:port} with the path when there is one, for logs and peer configs. */
    public String endpoint() {
        return address + ":" + port + (path == null ? "" : path);
    }
}
