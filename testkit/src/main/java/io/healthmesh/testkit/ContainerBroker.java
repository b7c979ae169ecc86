package io.healthmesh.testkit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** A single-node KRaft broker in a Docker container, through Testcontainers. */
final class ContainerBroker implements TestBroker {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerBroker.class);
    /** The image family Testcontainers' {@link KafkaContainer} knows how to configure. */
    private static final String APACHE_KAFKA = "apache/kafka";

    private final KafkaContainer container;

    private ContainerBroker(KafkaContainer container) {
        this.container = container;
    }

    /**
     * Whether Testcontainers can use a Docker engine: its own check, which honours its configuration files and
     * also starts its Ryuk clean-up container (unless {@code TESTCONTAINERS_RYUK_DISABLED=true}).
     */
    static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("Docker check failed", e);
            return false;
        }
    }

    /**
     * Starts {@code image}; any image name is accepted as a stand-in for {@code apache/kafka}, so a locally built
     * image works too if it follows that image's layout (Testcontainers starts the broker through
     * {@code /etc/kafka/docker/run} with {@code KAFKA_*} environment variables).
     */
    @SuppressWarnings("resource") // closed by close()
    static ContainerBroker start(String image) {
        DockerImageName name = DockerImageName.parse(image).asCompatibleSubstituteFor(APACHE_KAFKA);
        // Testcontainers already sizes the node for one replica and no initial rebalance delay.
        KafkaContainer container = new KafkaContainer(name);
        try {
            container.start();
        } catch (RuntimeException | Error e) {
            container.close();
            throw e;
        }
        return new ContainerBroker(container);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public void close() {
        try {
            container.close();
        } catch (RuntimeException e) {
            LOG.warn("Kafka container did not stop cleanly", e);
        }
    }

    @Override
    public String toString() {
        return "Kafka container " + container.getDockerImageName() + " at " + bootstrapServers();
    }
}
