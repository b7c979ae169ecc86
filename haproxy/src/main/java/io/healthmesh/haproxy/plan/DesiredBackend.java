package io.healthmesh.haproxy.plan;

import java.util.List;

/**
 * What one backend should hold.
 *
 * @param backend the HAProxy backend
 * @param group the group feeding it
 * @param servers its servers, sorted by name, names distinct
 * @param problems members that could not become a server (a name clash, an address HAProxy cannot take), one
 *                 sentence each
 */
public record DesiredBackend(String backend, String group, List<DesiredServer> servers, List<String> problems) {

    public DesiredBackend {
        servers = List.copyOf(servers);
        problems = List.copyOf(problems);
    }
}
