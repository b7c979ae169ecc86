package io.healthmesh.testkit;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Which Kafka the tests get, and why: Testcontainers' Kafka container when {@code healthmesh.containers=true}
 * and a Docker engine answers, the embedded broker otherwise.
 *
 * @param kind the broker to start
 * @param reason one sentence for the log saying why
 * @param fellBack whether containers were asked for but cannot be used
 */
record BackendChoice(Kind kind, String reason, boolean fellBack) {

    /** The two ways to get a broker. */
    enum Kind { EMBEDDED, CONTAINER }

    BackendChoice {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * Decides from the value of {@code healthmesh.containers} (may be {@code null}); Docker is only asked
     * when containers are wanted, because asking takes time and logs.
     */
    static BackendChoice choose(String containersProperty, BooleanSupplier dockerAnswers) {
        if (!"true".equalsIgnoreCase(containersProperty == null ? "" : containersProperty.trim())) {
            return new BackendChoice(Kind.EMBEDDED,
                    "embedded Kafka: system property " + KafkaExtension.CONTAINERS_PROPERTY + " is not true", false);
        }
        if (!dockerAnswers.getAsBoolean()) {
            return new BackendChoice(Kind.EMBEDDED, "embedded Kafka: " + KafkaExtension.CONTAINERS_PROPERTY
                    + "=true but Testcontainers finds no usable Docker engine", true);
        }
        return new BackendChoice(Kind.CONTAINER, "Kafka container: " + KafkaExtension.CONTAINERS_PROPERTY
                + "=true and Testcontainers finds a Docker engine", false);
    }
}
