package io.healthmesh.haproxy.plan;

import java.util.List;

/**
 * The Runtime API commands that bring one server to its desired state, applied in order in one session.
 *
 * @param backend the backend
 * @param server the server
 * @param commands the commands, in order (e.g. {@code set server b/s state maint}, then {@code del server b/s})
 * @param takesOut whether the change takes a server that takes traffic out of it (READY to MAINT, DRAIN or gone):
 *                 these are the changes the change budget bounds
 */
public record ServerChange(String backend, String server, List<String> commands, boolean takesOut) {

    public ServerChange {
        commands = List.copyOf(commands);
    }
}
