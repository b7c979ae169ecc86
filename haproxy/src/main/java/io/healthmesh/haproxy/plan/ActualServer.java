package io.healthmesh.haproxy.plan;

import static java.util.Objects.requireNonNull;

/**
 * A server as HAProxy holds it (a row of {@code show servers state}).
 *
 * @param name the server name
 * @param address its IP address, or {@code null} when it has none (a host name not resolved)
 * @param fqdn the host name it was given, or {@code null}
 * @param port its port
 * @param weight its user weight
 * @param state its admin state as the driver sees it
 */
public record ActualServer(String name, String address, String fqdn, int port, int weight, ServerState state) {

    public ActualServer {
        requireNonNull(name, "name");
        requireNonNull(state, "state");
    }
}
