package io.healthmesh.e2e;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Whether the container tests can run here: the container tier is on ({@code -Pcontainers}) and a Docker engine
 * answers. When not, the tests are skipped and one WARN line says why (Failsafe's summary shows no reasons).
 */
final class ContainerTier {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerTier.class);

    private ContainerTier() {
    }

    /** Skips the calling test class, saying why, unless containers can run. */
    static void assumeAvailable() {
        String reason = null;
        if (!Boolean.getBoolean("healthmesh.containers")) {
            reason = "container tier off: run with -Pcontainers (after docker/ci-setup.sh)";
        } else if (!Docker.answers()) {
            reason = "no Docker engine answers (as root, docker/ci-setup.sh installs and starts one)";
        }
        if (reason != null) {
            LOG.warn("container tests skipped: {}", reason);
        }
        assumeTrue(reason == null, reason);
    }
}
