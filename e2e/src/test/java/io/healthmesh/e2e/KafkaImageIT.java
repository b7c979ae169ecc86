package io.healthmesh.e2e;

import io.healthmesh.testkit.CreatedTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka image of the suite (by default the offline one built from Kafka's Maven jars) stands in for
 * {@code apache/kafka} under Testcontainers' own {@link KafkaContainer}, which the embedded module's container
 * mode uses: it starts a broker that a client can create topics on.
 */
class KafkaImageIT {

    @BeforeAll
    static void containerTier() {
        ContainerTier.assumeAvailable();
    }

    @Test
    void testcontainersKafkaContainerRunsTheImage() throws Exception {
        E2eImages images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
        DockerImageName image = DockerImageName.parse(images.kafka()).asCompatibleSubstituteFor("apache/kafka");
        try (KafkaContainer kafka = new KafkaContainer(image)) {
            kafka.start();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("e2e-image-check", 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
                assertThat(CreatedTopics.awaitLed(admin, "e2e-image-check", Duration.ofSeconds(60)).partitions())
                        .hasSize(3);
            }
        }
    }
}
