package io.healthmesh.haproxy.plan;

import static java.util.Objects.requireNonNull;

/**
 * A server a backend should hold.
 *
 * @param name the HAProxy server name
 * @param targetId the target it stands for
 * @param address its address (IP literal or host name)
 * @param port its port
 * @param weight its weight, 0..256
 * @param state READY when served, DRAIN when served under a DRAIN maintenance window, MAINT otherwise
 */
public record DesiredServer(String name, String targetId, String address, int port, int weight, ServerState state) {

    public DesiredServer {
        requireNonNull(name, "name");
        requireNonNull(targetId, "targetId");
        requireNonNull(address, "address");
        requireNonNull(state, "state");
    }
}
