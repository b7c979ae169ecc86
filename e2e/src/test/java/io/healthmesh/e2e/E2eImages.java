package io.healthmesh.e2e;

import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;

import java.util.List;
import java.util.Map;

/**
 * The images the suite runs, named by system properties or the environment that {@code docker/ci-setup.sh}
 * writes to {@code docker/.ci-env}. They are never pulled: a missing one fails the suite with what builds it.
 *
 * @param healthmesh every healthmesh role ({@code HEALTHMESH_IMAGE}, default {@code healthmesh:dev})
 * @param kafka a KRaft broker configured by {@code KAFKA_*} variables ({@code KAFKA_IMAGE})
 * @param targets the example backends ({@code HEALTHMESH_TARGET_IMAGE})
 */
record E2eImages(String healthmesh, String kafka, String targets) {

    static final String DEFAULT_HEALTHMESH = "healthmesh:dev";
    static final String DEFAULT_KAFKA = "healthmesh/kafka:4.1.1";
    static final String DEFAULT_TARGETS = "healthmesh/targets:dev";

    /** The names in force: system property, else environment variable, else the local default. */
    static E2eImages fromEnvironment(Map<String, String> env) {
        return new E2eImages(
                pick("healthmesh.image", "HEALTHMESH_IMAGE", DEFAULT_HEALTHMESH, env),
                pick("healthmesh.kafka.image", "KAFKA_IMAGE", DEFAULT_KAFKA, env),
                pick("healthmesh.target.image", "HEALTHMESH_TARGET_IMAGE", DEFAULT_TARGETS, env));
    }

    /** Fails with the command that builds them when an image is not on the engine. */
    void requirePresent() {
        for (String image : List.of(healthmesh, kafka, targets)) {
            try {
                DockerClientFactory.instance().client().inspectImageCmd(image).exec();
            } catch (NotFoundException e) {
                throw new IllegalStateException("image " + image + " is not on the Docker engine "
                        + "(build it: docker/ci-setup.sh as root, or docker/build-images.sh --offline)", e);
            }
        }
    }

    private static String pick(String property, String variable, String fallback, Map<String, String> env) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = env.get(variable);
        }
        return value == null || value.isBlank() ? fallback : value;
    }
}
