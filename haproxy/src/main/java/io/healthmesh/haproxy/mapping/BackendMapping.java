package io.healthmesh.haproxy.mapping;

import static java.util.Objects.requireNonNull;

/**
 * One group feeding one HAProxy backend.
 *
 * @param group the healthmesh group whose members become the backend's servers
 * @param backend the HAProxy backend (a {@code backend} section of haproxy.cfg); the driver owns all its servers
 * @param serverName the server-name template, containing {@code {id}} once (the target id, see {@link ServerNames})
 * @param weightLabel a label of the target definitions whose value (0..256) is the server weight, or {@code null}
 *                    to use the definitions' own {@code weight}
 */
public record BackendMapping(String group, String backend, String serverName, String weightLabel) {

    public static final String DEFAULT_SERVER_NAME = ServerNames.ID;

    public BackendMapping {
        requireNonNull(group, "group");
        requireNonNull(backend, "backend");
        requireNonNull(serverName, "serverName");
    }
}
