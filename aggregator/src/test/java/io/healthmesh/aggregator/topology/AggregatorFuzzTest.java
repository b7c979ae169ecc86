package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.fuzz.FuzzCorpus;
import io.healthmesh.testkit.fuzz.FuzzInput;
import io.healthmesh.testkit.fuzz.FuzzStats;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The aggregator's topology (TopologyTestDriver) against the fuzz corpus, hostile definitions, results and writer
 * schemas interleaved with valid targets: nothing thrown out of the topology (a stream thread would have died), every
 * definition rejected with a reason and its exact bytes exactly when an independent decode-and-validate refuses it,
 * at most one rejected record per input, every valid target reaches a state, no record over 100 ms of CPU time. The
 * short run is part of the build; the full one (100,000 definitions, 10,000 results, 1,000 hostile schemas) runs
 * with {@code -Plong}.
 */
class AggregatorFuzzTest {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final long EPOCH = 1_700_000_000_000L;

    @TempDir
    Path stateDir;

    @Test
    void shortRun() {
        run(1_000, 300, 30);
    }

    @Test
    @Tag("long")
    void fullRun() {
        run(100_000, 10_000, 1_000);
    }

    private void run(int definitions, int results, int hostile) {
        String scope = "fuzz-aggregator-" + UUID.randomUUID();
        try {
            AggregatorConfig config = AggregatorConfig.from(Map.of("bootstrap.servers", "unused:9092",
                    "schema.registry.url", "mem://" + scope, "state.dir", stateDir.toString()));
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            try (TopologyTestDriver driver = new TopologyTestDriver(
                    AggregatorTopology.build(config, config.serdeConfig()), props, Instant.ofEpochMilli(EPOCH))) {
                new Harness(config, driver, scope).run(definitions, results, hostile);
            }
        } finally {
            MemoryRegistries.drop(scope);
        }
    }

    private static final class Harness {
        private final FuzzCorpus corpus;
        private final TestInputTopic<byte[], byte[]> targets;
        private final TestInputTopic<byte[], byte[]> resultsIn;
        private final TestOutputTopic<byte[], byte[]> rejected;
        private final TestOutputTopic<String, byte[]> health;
        private final List<TargetSpec> known = new ArrayList<>();
        private final Set<String> validIds = new HashSet<>();
        private final FuzzStats stats = new FuzzStats("aggregator topology");
        private int inputs;

        Harness(AggregatorConfig config, TopologyTestDriver driver, String scope) {
            corpus = new FuzzCorpus(23, config.serdeConfig(), MemoryRegistries.scope(scope)::register,
                    config.topics().targets(), config.topics().probeResults());
            ByteArraySerializer bytes = new ByteArraySerializer();
            targets = driver.createInputTopic(config.topics().targets(), bytes, bytes);
            resultsIn = driver.createInputTopic(config.topics().probeResults(), bytes, bytes);
            rejected = driver.createOutputTopic(config.topics().rejected(), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            health = driver.createOutputTopic(config.topics().healthState(), new StringDeserializer(),
                    new ByteArrayDeserializer());
        }

        void run(int definitions, int results, int hostile) {
            defineValid();
            int resultEvery = Math.max(1, definitions / Math.max(1, results));
            int[] resultsSent = {0};
            corpus.forEach(definitions, hostile, input -> {
                definition(input);
                if (++inputs % 50 == 0) {
                    defineValid();
                }
                if (inputs % resultEvery == 0 && resultsSent[0] < results) {
                    result(corpus.mutatedResult(known, EPOCH));
                    resultsSent[0]++;
                }
            });
            while (resultsSent[0]++ < results) {
                result(corpus.mutatedResult(known, EPOCH));
            }
            System.out.println(stats);
            Set<String> withState = new HashSet<>();
            health.readRecordsToList().forEach(r -> withState.add(r.key()));
            assertThat(withState).as("valid targets with a state event").containsAll(validIds);
            assertThat(stats.inputs()).isEqualTo(definitions + hostile + results);
            // no record holds a worker for long: a definition's validation now compiles its CEL condition (up to
            // 2,048 characters, 32 levels deep), tens of ms on a busy 2-core machine, so the bound is a quarter second
            assertThat(stats.maxMillis()).as("slowest record, ms of CPU").isLessThan(250);
        }

        private void defineValid() {
            TargetDefinition valid = corpus.validDefinition("valid-" + validIds.size());
            targets.pipeInput(valid.getId().getBytes(StandardCharsets.UTF_8), corpus.encode(valid), EPOCH);
            assertThat(rejected.isEmpty()).as("a valid definition is not rejected").isTrue();
            validIds.add(valid.getId());
            known.add(TargetSpecs.fromAvro(valid));
        }

        private void definition(FuzzInput input) {
            boolean acceptable = corpus.acceptable(input);
            List<TestRecord<byte[], byte[]>> out = pipe(targets, input);
            if (acceptable) {
                assertThat(out).as("accepted %s", input.kind()).isEmpty();
                return;
            }
            assertThat(out).as("rejected %s", input.kind()).hasSize(1);
            TestRecord<byte[], byte[]> r = out.get(0);
            String reason = header(r, RejectedHeaders.REASON);
            assertThat(header(r, RejectedHeaders.DETAIL)).isNotBlank();
            if (!"TOO_LARGE".equals(reason)) {
                assertThat(r.value()).as("the exact bytes of %s", input.kind()).isEqualTo(input.value());
            }
        }

        private void result(FuzzInput input) {
            List<TestRecord<byte[], byte[]>> out = pipe(resultsIn, input);
            assertThat(out).as("rejected records for %s", input.kind()).hasSizeLessThanOrEqualTo(1);
            if (!out.isEmpty()) {
                assertThat(out.get(0).value()).isEqualTo(input.value());
            }
        }

        /** Pipes one input, records its cost and outcome, returns what went to the rejected topic. */
        private List<TestRecord<byte[], byte[]>> pipe(TestInputTopic<byte[], byte[]> topic, FuzzInput input) {
            long cpu = CPU.getCurrentThreadCpuTime();
            long started = System.nanoTime();
            topic.pipeInput(input.key(), input.value(), EPOCH);   // an exception here is a dead stream thread
            long wall = System.nanoTime() - started;
            long nanos = CPU.getCurrentThreadCpuTime() - cpu;
            List<TestRecord<byte[], byte[]>> out = rejected.readRecordsToList();
            if (out.isEmpty()) {
                stats.accepted(nanos, wall, input.kind());
            } else {
                String reason = header(out.get(0), RejectedHeaders.REASON);
                assertThat(reason).as("reason of %s", input.kind()).isNotBlank();
                stats.rejected(reason, nanos, wall, input.kind());
            }
            return out;
        }

        private static String header(TestRecord<byte[], byte[]> r, String name) {
            Header h = r.headers().lastHeader(name);
            return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    }
}
