package io.healthmesh.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.contract.Topics;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Node service reading healthmesh's topics with kafkajs as npm installs it (gzip is its only codec without a
 * plugin) and its default settings: every topic a user is told to read ({@code targets}, {@code health-state},
 * {@code group-state}, {@code rejected}) must be readable, whatever codec the workers' producers use. A real prober
 * and aggregator write the state; kafkajs is installed from npm into a temporary folder. Skipped without Node.js
 * and npm on a developer machine, failed in CI ({@code CI=true}).
 */
@ExtendWith(KafkaExtension.class)
class KafkajsReadsIT {

    /** The kafkajs release checked (its newest; it has had no release since). */
    static final String KAFKAJS = "kafkajs@2.2.4";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    @TempDir
    Path nodeDir;

    @BeforeAll
    static void nodeInstalled() {
        if (!runs("node", "--version") || !runs("npm", "--version")) {
            String message = "node or npm is missing (apt-get install nodejs npm)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(message + "; CI must install them (.ci/run)");
            }
            Assumptions.abort(message);
        }
    }

    @Test
    @Timeout(300)
    void kafkajsWithItsDefaultsReadsEveryUserFacingTopic(TestKafka kafka) throws Exception {
        installKafkajs();
        try (LoopbackHttpBackend up = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            pipeline.startProber("a", List.of());
            pipeline.define(TargetSpec.of("js-up", "js", up.host(), up.port(), Protocol.HTTP)
                    .withTiming(1_000, 500).withThresholds(2, 2));
            pipeline.define(TargetSpec.of("js-down", "js", "127.0.0.1", 9, Protocol.TCP)
                    .withTiming(1_000, 500).withThresholds(2, 2));
            // a record that is not a definition: both workers send it to the rejected topic
            pipeline.sendRaw(false, "js-junk".getBytes(StandardCharsets.UTF_8), new byte[] {42, 42, 42});
            pipeline.flushRaw();
            Await.until(PATIENCE, () -> pipeline.health().values().stream()
                            .filter(v -> v != null && v.getStatus() != HealthStatus.DETECTING)
                            .count() >= 2,
                    () -> "state events: " + pipeline.health().values());
            Await.until(PATIENCE, () -> !pipeline.groups().values().isEmpty(), () -> "no group event");

            Topics topics = pipeline.aggregatorConfig().topics();
            JsonNode seen = readWithKafkajs(kafka.bootstrapServers(), Map.of(topics.targets(), 3,
                    topics.healthState(), 2, topics.groupState(), 1, topics.rejected(), 1));

            for (String topic : List.of(topics.healthState(), topics.groupState(), topics.targets())) {
                assertThat(seen.path(topic).path("wireFormat").asInt())
                        .as("records of %s in the Confluent wire format", topic).isGreaterThanOrEqualTo(1);
            }
        }
    }

    private JsonNode readWithKafkajs(String brokers, Map<String, Integer> wants) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "read-topics.js", brokers));
        wants.forEach((topic, min) -> command.add(topic + "=" + min));
        Path log = nodeDir.resolve("read-topics.out");
        Process node = new ProcessBuilder(command).directory(nodeDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!node.waitFor(90, TimeUnit.SECONDS)) {
            node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(node.isAlive()).as("kafkajs reader still running; its output: %s", output).isFalse();
        assertThat(node.exitValue()).as("kafkajs reader exit code; its output: %s", output).isZero();
        String json = output.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow();
        return new ObjectMapper().readTree(json).path("seen");
    }

    private void installKafkajs() throws IOException, InterruptedException {
        try (InputStream script = KafkajsReadsIT.class.getResourceAsStream("/kafkajs/read-topics.js")) {
            Files.write(nodeDir.resolve("read-topics.js"), script.readAllBytes());
        }
        Files.writeString(nodeDir.resolve("package.json"), "{\"name\": \"kafkajs-check\", \"private\": true}\n");
        Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", KAFKAJS)
                .directory(nodeDir.toFile()).redirectErrorStream(true).start();
        boolean ended = npm.waitFor(180, TimeUnit.SECONDS);
        String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            npm.destroyForcibly();
        }
        assertThat(ended && npm.exitValue() == 0).as("npm install %s: %s", KAFKAJS, output).isTrue();
    }

    private static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
