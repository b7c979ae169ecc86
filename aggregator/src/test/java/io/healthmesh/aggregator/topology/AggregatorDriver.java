package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * A {@link TopologyTestDriver} around {@link AggregatorTopology#build} with a fake wall clock that tests move by hand:
 * {@link #at} sets both the wall clock and the timestamp of what is piped next, so times in tests read as seconds
 * since the start of a scenario.
 */
final class AggregatorDriver implements AutoCloseable {

    static final long EPOCH = 1_700_000_000_000L;

    final AggregatorConfig config;
    final Map<String, Object> serdeConfig;
    final TopologyTestDriver driver;
    final TestInputTopic<String, TargetDefinition> targets;
    final TestInputTopic<String, ProbeResult> results;
    final TestInputTopic<byte[], byte[]> rawTargets;
    final TestInputTopic<byte[], byte[]> rawResults;
    final TestInputTopic<String, GroupPolicy> policies;
    final TestInputTopic<byte[], byte[]> rawPolicies;
    final TestOutputTopic<String, TargetHealth> health;
    final TestOutputTopic<String, GroupHealth> groups;
    final TestOutputTopic<byte[], byte[]> rejected;
    final AvroSerde<TargetDefinition> definitionSerde;
    final AvroSerde<ProbeResult> resultSerde;
    private long nowMs = EPOCH;

    AggregatorDriver(Path stateDir, Map<String, String> extraSettings) {
        this(stateDir, extraSettings, UnaryOperator.identity());
    }

    /** A driver whose definitions' deserializer is wrapped by {@code definitionsWrapper} (fault injection). */
    AggregatorDriver(Path stateDir, Map<String, String> extraSettings,
                     UnaryOperator<Deserializer<TargetDefinition>> definitionsWrapper) {
        this(stateDir, extraSettings, definitionsWrapper, Stores::persistentKeyValueStore);
    }

    /** A driver with the stores {@code stores} supplies (in-memory ones for tests of many records). */
    AggregatorDriver(Path stateDir, Map<String, String> extraSettings,
                     UnaryOperator<Deserializer<TargetDefinition>> definitionsWrapper,
                     Function<String, KeyValueBytesStoreSupplier> stores) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "bootstrap.servers", "unused:9092",
                "schema.registry.url", "mem://aggregator-test-" + UUID.randomUUID(),
                "state.dir", stateDir.toString(),
                "punctuate.interval.ms", "1000"));
        settings.putAll(extraSettings);
        config = AggregatorConfig.from(settings);
        serdeConfig = config.serdeConfig();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(AggregatorTopology.build(config, serdeConfig, definitionsWrapper, stores), props, Instant.ofEpochMilli(EPOCH));
        definitionSerde = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
        resultSerde = AvroSerde.forValues(ProbeResult.class, serdeConfig);
        targets = driver.createInputTopic(config.topics().targets(), new StringSerializer(), definitionSerde.serializer());
        results = driver.createInputTopic(config.topics().probeResults(), new StringSerializer(), resultSerde.serializer());
        rawTargets = driver.createInputTopic(config.topics().targets(), new ByteArraySerializer(), new ByteArraySerializer());
        rawResults = driver.createInputTopic(config.topics().probeResults(), new ByteArraySerializer(),
                new ByteArraySerializer());
        policies = driver.createInputTopic(config.topics().groups(), new StringSerializer(),
                AvroSerde.forValues(GroupPolicy.class, serdeConfig).serializer());
        rawPolicies = driver.createInputTopic(config.topics().groups(), new ByteArraySerializer(),
                new ByteArraySerializer());
        health = driver.createOutputTopic(config.topics().healthState(), new StringDeserializer(),
                AvroSerde.forValues(TargetHealth.class, serdeConfig).deserializer());
        groups = driver.createOutputTopic(config.topics().groupState(), new StringDeserializer(),
                AvroSerde.forValues(GroupHealth.class, serdeConfig).deserializer());
        rejected = driver.createOutputTopic(config.topics().rejected(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    AggregatorDriver(Path stateDir) {
        this(stateDir, Map.of());
    }

    /**
     * Moves the wall clock forward to {@code secondsSinceStart} (never back); punctuations due fire. The clock moves
     * at most one punctuation interval at a time, as the stream thread of a running instance punctuates: a task with
     * nothing to read counts the time between its punctuations as silence only a bounded step at a time
     * ({@code ReadClock}), and a single jump would look like a stalled process. Each step is a commit of the driver
     * (its stores flushed, their checkpoints written): cheap only because this module's temp dirs are in memory
     * ({@code MemoryTempDirFactory}).
     */
    AggregatorDriver at(double secondsSinceStart) {
        long target = EPOCH + Math.round(secondsSinceStart * 1000);
        long step = config.punctuateInterval().toMillis();
        while (target > nowMs) {
            long next = Math.min(target, nowMs + step);
            driver.advanceWallClockTime(Duration.ofMillis(next - nowMs));
            nowMs = next;
        }
        return this;
    }

    /** Moves the wall clock forward to {@code secondsSinceStart} in one jump, as after a stall of the process. */
    AggregatorDriver jumpTo(double secondsSinceStart) {
        long target = EPOCH + Math.round(secondsSinceStart * 1000);
        if (target > nowMs) {
            driver.advanceWallClockTime(Duration.ofMillis(target - nowMs));
            nowMs = target;
        }
        return this;
    }

    long now() {
        return nowMs;
    }

    void define(TargetSpec spec) {
        targets.pipeInput(spec.id(), TargetSpecs.toAvro(spec), Instant.ofEpochMilli(nowMs));
    }

    /** Sets {@code group}'s panic threshold ({@link PanicThreshold#NONE}: deletes its policy with a tombstone). */
    void policy(String group, PanicThreshold threshold) {
        policies.pipeInput(group, threshold.isNone() ? null : GroupPolicies.toAvro(group, threshold),
                Instant.ofEpochMilli(nowMs));
    }

    /** Pipes a definition stamped {@code timestampMs} (a backlog: written before the wall clock's now). */
    void defineStamped(TargetSpec spec, long timestampMs) {
        targets.pipeInput(spec.id(), TargetSpecs.toAvro(spec), Instant.ofEpochMilli(timestampMs));
    }

    void delete(String id) {
        targets.pipeInput(id, null, Instant.ofEpochMilli(nowMs));
    }

    /**
     * Pipes the result of a probe of {@code spec} from {@code region} that started {@code latencyMs} ago and has just
     * completed (the wall clock is the completion time).
     */
    void result(TargetSpec spec, String region, Outcome outcome, long latencyMs) {
        result(spec.id(), ProbeFingerprint.of(spec), region, outcome, nowMs - latencyMs, latencyMs);
    }

    /**
     * As {@link #result(TargetSpec, String, Outcome, long)} for a probe that completed at {@code completedAtMs}, which is
     * also the record's timestamp (a backlog: results older than the wall clock).
     */
    void resultStamped(TargetSpec spec, String region, Outcome outcome, long completedAtMs) {
        ProbeResult r = ProbeResult.newBuilder()
                .setTargetId(spec.id()).setGeneration(ProbeFingerprint.of(spec)).setRegion(region)
                .setProberId("prober-" + region).setProtocol(Protocol.HTTP).setStartedAtMs(completedAtMs - 1)
                .setOutcome(ProbeOutcome.valueOf(outcome.name())).setLatencyMicros(1_000)
                .setDetail(outcome == Outcome.SUCCESS ? null : outcome.name()).build();
        results.pipeInput(spec.id(), r, Instant.ofEpochMilli(completedAtMs));
    }

    void result(String id, long generation, String region, Outcome outcome, long startedAtMs, long latencyMs) {
        ProbeResult r = ProbeResult.newBuilder()
                .setTargetId(id).setGeneration(generation).setRegion(region).setProberId("prober-" + region)
                .setProtocol(Protocol.HTTP).setStartedAtMs(startedAtMs).setOutcome(ProbeOutcome.valueOf(outcome.name()))
                .setLatencyMicros(latencyMs * 1_000).setDetail(outcome == Outcome.SUCCESS ? null : outcome.name())
                .build();
        results.pipeInput(id, r, Instant.ofEpochMilli(nowMs));
    }

    List<TestRecord<String, TargetHealth>> healthEvents() {
        return health.readRecordsToList();
    }

    List<TestRecord<String, GroupHealth>> groupEvents() {
        return groups.readRecordsToList();
    }

    /** A counter of {@link AggregatorMetrics} with that reason (or outcome), 0 when never recorded. */
    double metric(String name, String reason) {
        for (Map.Entry<MetricName, ? extends Metric> e : driver.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.group().equals(AggregatorMetrics.GROUP) && n.name().equals(name)
                    && (reason == null || reason.equals(n.tags().get("reason"))
                            || reason.equals(n.tags().get("outcome")))) {
                return ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        return 0;
    }

    @Override
    public void close() {
        driver.close();
        definitionSerde.close();
        resultSerde.close();
    }
}
