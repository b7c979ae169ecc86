package io.healthmesh.pipeline;

import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.status.board.GroupRow;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.feed.StatusFeed;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The panic threshold end to end on a real broker: four targets of one group turn HEALTHY from probe results, a
 * policy record on the groups topic asks for 75 % of them, two go UNHEALTHY, and the aggregator's group event fails
 * open with reason BELOW_MIN_HEALTHY and every member routable; the status page's feed shows the reason; deleting the
 * policy (a tombstone) brings the group back to its two healthy members.
 */
@ExtendWith(KafkaExtension.class)
class PanicThresholdIT {

    private static final Duration PATIENCE = Duration.ofSeconds(45);
    private static final String GROUP = "pool";

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void aGroupBelowItsThresholdFailsOpenWithItsReasonAndTheStatusPageSaysWhy(TestKafka kafka) throws Exception {
        try (Pipeline pipeline = Pipeline.start(kafka, stateDir);
             AvroSerde<ProbeResult> results = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
             AvroSerde<GroupPolicy> policies = AvroSerde.forValues(GroupPolicy.class, kafka.serdeConfig());
             KafkaProducer<String, GroupPolicy> policyProducer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG,
                     "all"), new StringSerializer(), policies.serializer())) {
            StatusBoard board = new StatusBoard(10);
            String policyTopic = pipeline.aggregatorConfig().topics().groups();
            try (StatusFeed ignored = new StatusFeed(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    kafka.serdeConfig(), pipeline.aggregatorConfig().topics(), board, Clock.systemUTC()).start()) {
                List<TargetSpec> specs = new ArrayList<>();
                for (int i = 1; i <= 4; i++) {
                    specs.add(TargetSpec.of("m" + i, GROUP, "192.0.2." + i, 80, Protocol.TCP));
                }
                pipeline.defineAll(specs);
                // results of a target the aggregator does not know yet are rejected: wait for the four members
                awaitGroup(pipeline, "four members", g -> g.getMembers() == 4);
                for (TargetSpec spec : specs) {
                    threeResults(pipeline, results, spec, ProbeOutcome.SUCCESS);
                }
                awaitGroup(pipeline, "four healthy", g -> !g.getFailOpen() && g.getRoutable().size() == 4);

                policyProducer.send(new ProducerRecord<>(policyTopic, GROUP,
                        GroupPolicies.toAvro(GROUP, new PanicThreshold(75, null, 0, 0)))).get();
                threeResults(pipeline, results, specs.get(0), ProbeOutcome.CONNECTION_REFUSED);
                awaitGroup(pipeline, "three of four routable (75 %)", g -> !g.getFailOpen() && g.getRoutable().size() == 3);
                threeResults(pipeline, results, specs.get(1), ProbeOutcome.CONNECTION_REFUSED);
                GroupHealth panic = awaitGroup(pipeline, "fail-open below the threshold", GroupHealth::getFailOpen);
                assertThat(panic.getFailOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
                assertThat(panic.getHealthy()).isEqualTo(2);
                assertThat(panic.getRoutable()).containsExactly("m1", "m2", "m3", "m4");

                Await.until(PATIENCE, () -> row(board).map(r -> "BELOW_MIN_HEALTHY".equals(r.failOpenReason()))
                        .orElse(false), () -> "the status board's group row: " + row(board));
                assertThat(row(board).orElseThrow().isFailOpen()).isTrue();

                policyProducer.send(new ProducerRecord<>(policyTopic, GROUP, null)).get();
                GroupHealth back = awaitGroup(pipeline, "back to its healthy members", g -> !g.getFailOpen());
                assertThat(back.getFailOpenReason()).isNull();
                assertThat(back.getRoutable()).containsExactly("m3", "m4");
                Await.until(PATIENCE, () -> row(board).map(r -> !r.isFailOpen() && r.failOpenReason() == null)
                        .orElse(false), () -> "the status board's group row: " + row(board));
            }
        }
    }

    private static Optional<GroupRow> row(StatusBoard board) {
        return board.groups().stream().filter(g -> g.id().equals(GROUP)).findFirst();
    }

    private static long lastStartMs;

    /** A probe start after every earlier one: the aggregator applies a region's results in start order, once each. */
    private static long nextStartMs() {
        lastStartMs = Math.max(System.currentTimeMillis(), lastStartMs + 1);
        return lastStartMs;
    }

    /** Three results of {@code outcome} for {@code spec} (its thresholds are 3), as a prober would publish them. */
    private static void threeResults(Pipeline pipeline, AvroSerde<ProbeResult> serde, TargetSpec spec,
                                     ProbeOutcome outcome) {
        String topic = pipeline.aggregatorConfig().topics().probeResults();
        for (int i = 0; i < 3; i++) {
            ProbeResult r = ProbeResult.newBuilder().setTargetId(spec.id()).setGeneration(ProbeFingerprint.of(spec))
                    .setRegion("default").setProberId("it").setProtocol(io.healthmesh.schema.Protocol.TCP)
                    .setStartedAtMs(nextStartMs()).setOutcome(outcome).setLatencyMicros(1_000)
                    .setDetail(outcome == ProbeOutcome.SUCCESS ? null : outcome.name()).build();
            pipeline.sendRaw(true, spec.id().getBytes(StandardCharsets.UTF_8), serde.serializer().serialize(topic, r));
        }
        pipeline.flushRaw();
    }

    /** The latest group event once it matches {@code condition}. */
    private static GroupHealth awaitGroup(Pipeline pipeline, String what, Predicate<GroupHealth> condition) {
        Await.until(PATIENCE, () -> latest(pipeline).filter(condition).isPresent(),
                () -> "group " + GROUP + " never " + what + "; events: "
                        + pipeline.groups().of(GROUP).stream().map(r -> String.valueOf(r.value())).toList());
        return latest(pipeline).orElseThrow();
    }

    private static Optional<GroupHealth> latest(Pipeline pipeline) {
        List<Received<GroupHealth>> events = pipeline.groups().of(GROUP);
        return events.isEmpty() ? Optional.empty() : Optional.ofNullable(events.get(events.size() - 1).value());
    }
}
