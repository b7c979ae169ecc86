package io.healthmesh.e2e;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/** Whether a Docker engine answers, as Testcontainers sees it (its configuration, DOCKER_HOST, the socket). */
final class Docker {

    private static final Logger LOG = LoggerFactory.getLogger(Docker.class);

    private Docker() {
    }

    static boolean answers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("Docker check failed", e);
            return false;
        }
    }
}
