package io.healthmesh.e2e;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The documented one command, {@code docker/up.sh}, brings {@code docker/compose.yaml} up on this machine's images
 * and the example targets of {@code docker/targets.yaml} turn HEALTHY; the stack is taken down afterwards.
 */
class ComposeStackIT {

    private static final Logger LOG = LoggerFactory.getLogger(ComposeStackIT.class);
    private static final Set<String> EXAMPLE_TARGETS = Set.of("web-1", "web-2", "tcp-echo", "udp-echo");
    private static final Duration UP = Duration.ofSeconds(480);

    private static Path root;
    private static List<String> compose;

    @BeforeAll
    static void containerTierAndCompose() {
        ContainerTier.assumeAvailable();
        root = Path.of(System.getProperty("healthmesh.root", "..")).toAbsolutePath().normalize();
        assertThat(root.resolve("docker/up.sh")).as("the repository root (system property healthmesh.root)").exists();
        if (Processes.succeeds(List.of("docker", "compose", "version"), root)) {
            compose = List.of("docker", "compose");
        } else if (Processes.succeeds(List.of("docker-compose", "version"), root)) {
            compose = List.of("docker-compose");
        }
        if (compose == null) {
            LOG.warn("compose test skipped: neither 'docker compose' nor 'docker-compose' runs (docker/ci-setup.sh installs it)");
        }
        assumeTrue(compose != null, "neither 'docker compose' nor 'docker-compose' runs");
    }

    @Test
    void upShBringsTheStackUpAndEveryExampleTargetTurnsHealthy() throws Exception {
        E2eImages images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
        int kafkaPort = LocalPorts.free();
        int registryPort = LocalPorts.free();
        String project = "healthmesh-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> env = Map.of(
                "COMPOSE_PROJECT_NAME", project,
                "KAFKA_HOST_PORT", Integer.toString(kafkaPort),
                "REGISTRY_HOST_PORT", Integer.toString(registryPort),
                "HEALTHMESH_IMAGE", images.healthmesh(),
                "HEALTHMESH_TARGET_IMAGE", images.targets(),
                "KAFKA_IMAGE", images.kafka());
        try {
            long started = System.nanoTime();
            Processes.Result up = Processes.run(List.of("bash", "docker/up.sh"), root, env, UP);
            LOG.info("docker/up.sh exited {} after {} s", up.exitCode(),
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());
            assertThat(up.exitCode()).as("docker/up.sh exit code; its output:\n%s", up.output()).isZero();

            Map<String, Object> serde = Map.of("schema.registry.url", "http://127.0.0.1:" + registryPort);
            try (TopicFeed<TargetHealth> states = TopicFeed.start("127.0.0.1:" + kafkaPort,
                    Topics.DEFAULT.healthState(), TargetHealth.class, serde);
                 TopicFeed<GroupHealth> groups = TopicFeed.start("127.0.0.1:" + kafkaPort,
                         Topics.DEFAULT.groupState(), GroupHealth.class, serde)) {
                for (String target : EXAMPLE_TARGETS) {
                    states.await(0, Duration.ofSeconds(120), target + " HEALTHY", e -> target.equals(e.key())
                            && e.value() != null && e.value().getStatus() == HealthStatus.HEALTHY);
                }
                GroupHealth web = groups.await(0, Duration.ofSeconds(60), "group web with both members HEALTHY",
                        e -> "web".equals(e.key()) && e.value() != null && e.value().getHealthy() == 2).value();
                assertThat(web.getFailOpen()).isFalse();
                assertThat(web.getRoutable()).containsExactly("web-1", "web-2");
            }
        } finally {
            down(project, env);
        }
    }

    private static void down(String project, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-p", project, "-f", "docker/compose.yaml", "down", "-v", "--remove-orphans"));
        Processes.Result down = Processes.run(command, root, env, Duration.ofSeconds(180));
        if (down.exitCode() != 0) {
            LOG.warn("compose down of {} exited {}:\n{}", project, down.exitCode(), down.output());
        }
    }
}
