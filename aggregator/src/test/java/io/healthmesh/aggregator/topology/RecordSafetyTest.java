package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** BEHAVIOUR.md section 9, "no poison pill": whatever fails while one record is handled, the next record is handled. */
class RecordSafetyTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);

    @TempDir
    Path stateDir;

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static TargetSpec target(int n) {
        return TargetSpec.of("t-" + n, "pool", "10.0.0." + (n + 1), 80, Protocol.TCP);
    }

    @Test
    void aRecordWhoseHandlingThrowsAnErrorIsRejectedWithItsExactBytesAndTheNextOneIsHandled() {
        byte[][] poison = new byte[1][];
        UnaryOperator<Deserializer<TargetDefinition>> faulty = real -> (topic, data) -> {
            if (poison[0] != null && java.util.Arrays.equals(data, poison[0])) {
                throw new StackOverflowError("deep");
            }
            return real.deserialize(topic, data);
        };
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of(), faulty)) {
            poison[0] = d.definitionSerde.serializer().serialize(d.config.topics().targets(),
                    TargetSpecs.toAvro(target(0)));
            d.rawTargets.pipeInput("t-0".getBytes(StandardCharsets.UTF_8), poison[0]);
            // the same bytes again: rejected again, never retried in a loop
            d.rawTargets.pipeInput("t-0".getBytes(StandardCharsets.UTF_8), poison[0]);
            d.define(target(1));
            List<TestRecord<byte[], byte[]>> rejected = d.rejected.readRecordsToList();
            assertThat(rejected).hasSize(2).allSatisfy(r -> {
                assertThat(r.value()).isEqualTo(poison[0]);
                assertThat(header(r, RejectedHeaders.REASON)).isEqualTo(Rejection.PROCESSING_FAILED);
                assertThat(header(r, RejectedHeaders.DETAIL)).isEqualTo("processing: java.lang.StackOverflowError: deep");
            });
            assertThat(d.healthEvents()).extracting(TestRecord::key).containsExactly("t-1");
        }
    }

    @Test
    void theFindingASeventyThousandCharacterRegionIsRejectedAndLaterTargetsAllReachAState() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.define(WEB.withRegions(List.of("x".repeat(70_000)), QuorumPolicy.MAJORITY, 1));
            for (int i = 0; i < 24; i++) {
                d.define(target(i));
            }
            List<TestRecord<byte[], byte[]>> rejected = d.rejected.readRecordsToList();
            assertThat(rejected).hasSize(1);
            assertThat(header(rejected.get(0), RejectedHeaders.REASON)).isEqualTo("INVALID_DEFINITION");
            assertThat(header(rejected.get(0), RejectedHeaders.DETAIL))
                    .startsWith("definition: 70").endsWith(" bytes encoded (expected: at most 16384)");
            assertThat(d.healthEvents()).extracting(TestRecord::key).hasSize(24).doesNotContain("web-1");
        }
    }

    @Test
    void aRejectedRecordTooLargeToCopyIsReportedWithoutItsBytes() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("kafka.producer.max.request.size", "12000"))) {
            byte[] huge = new byte[5_000];
            java.util.Arrays.fill(huge, (byte) 1);
            d.rawTargets.pipeInput("web-1".getBytes(StandardCharsets.UTF_8), huge);
            TestRecord<byte[], byte[]> r = d.rejected.readRecord();
            assertThat(r.value()).isNull();
            assertThat(r.key()).isEqualTo("web-1".getBytes(StandardCharsets.UTF_8));
            assertThat(header(r, RejectedHeaders.REASON)).isEqualTo(Rejection.TOO_LARGE);
            assertThat(header(r, RejectedHeaders.DETAIL)).startsWith("record: 5005 bytes (expected: at most 3808 to be "
                    + "copied here); was NOT_AVRO_WIRE_FORMAT: ");
            d.define(WEB);
            assertThat(d.healthEvents()).hasSize(1);
        }
    }

    @Test
    void resultsFromTheFutureAreRejectedWithinTheSkewTheyCount() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("result.max.future.skew.ms", "60000"))) {
            d.at(0).define(WEB.withThresholds(1, 1));
            d.healthEvents();
            long generation = ProbeFingerprint.of(WEB);
            d.result("web-1", generation, "default", Outcome.SUCCESS, d.now() + 60_001, 1);
            TestRecord<byte[], byte[]> r = d.rejected.readRecord();
            assertThat(header(r, RejectedHeaders.REASON)).isEqualTo(Rejection.FUTURE_RESULT);
            assertThat(header(r, RejectedHeaders.DETAIL)).isEqualTo("startedAtMs: " + (d.now() + 60_001)
                    + " (expected: at most 60000 ms after the aggregator's clock, " + d.now() + ")");
            assertThat(d.healthEvents()).isEmpty();
            d.result("web-1", generation, "default", Outcome.SUCCESS, d.now() + 60_000, 1);
            assertThat(d.rejected.isEmpty()).isTrue();
            assertThat(d.healthEvents()).extracting(e -> e.value().getStatus()).containsExactly(HealthStatus.HEALTHY);
        }
    }

    @Test
    void aRegionSilentLongerThanTheEvictionTimeIsForgotten() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("region.eviction.ms", "60000"))) {
            TargetSpec spec = WEB.withThresholds(1, 1);
            d.at(0).define(spec);
            d.at(1).result(spec, "eu", Outcome.SUCCESS, 10);
            d.result(spec, "us", Outcome.SUCCESS, 10);
            for (double s = 2; s <= 80; s += 1) {
                d.at(s).result(spec, "eu", Outcome.SUCCESS, 10);
            }
            List<TestRecord<String, TargetHealth>> events = d.healthEvents();
            TargetHealth last = events.get(events.size() - 1).value();
            assertThat(last.getRegions()).extracting(r -> r.getRegion()).containsExactly("eu");
            assertThat(events).anySatisfy(e -> assertThat(e.value().getRegions()).hasSize(2));
        }
    }
}
