package io.healthmesh.contract.endpoints;

import static java.util.Objects.requireNonNull;

/**
 * One address and port at which a worker's listener is reachable, as announced.
 *
 * @param listener what listens there ({@code http}, {@code ops}, {@code xds}...)
 * @param host     an IP address literal or a host name
 * @param port     1-65535
 */
public record AnnouncedEndpoint(String listener, String host, int port) {

    public AnnouncedEndpoint {
        requireNonNull(listener, "listener");
        requireNonNull(host, "host");
    }

    /** {@code host:port}, IPv6 literals in brackets. */
    public String spelling() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
