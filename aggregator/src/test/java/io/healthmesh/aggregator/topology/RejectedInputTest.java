package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** BEHAVIOUR.md section 9 through the topology: every kind of bad input goes to the rejected topic and the stream goes on. */
class RejectedInputTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);

    @TempDir
    Path stateDir;
    private AggregatorDriver d;

    @BeforeEach
    void start() {
        d = new AggregatorDriver(stateDir);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Pipes the raw record, expects exactly one rejected record with the same bytes, and returns it. */
    private TestRecord<byte[], byte[]> rejectedFor(boolean targetsTopic, byte[] key, byte[] value, String reason) {
        (targetsTopic ? d.rawTargets : d.rawResults).pipeInput(key, value);
        List<TestRecord<byte[], byte[]>> out = d.rejected.readRecordsToList();
        assertThat(out).hasSize(1);
        TestRecord<byte[], byte[]> r = out.get(0);
        assertThat(r.key()).isEqualTo(key);
        assertThat(r.value()).isEqualTo(value);
        assertThat(header(r, RejectedHeaders.REASON)).isEqualTo(reason);
        assertThat(header(r, RejectedHeaders.REJECTED_BY)).isEqualTo("aggregator");
        assertThat(header(r, RejectedHeaders.SOURCE_TOPIC))
                .isEqualTo(targetsTopic ? d.config.topics().targets() : d.config.topics().probeResults());
        assertThat(header(r, RejectedHeaders.SOURCE_PARTITION)).isEqualTo("0");
        assertThat(header(r, RejectedHeaders.SOURCE_OFFSET)).matches("[0-9]+");
        assertThat(d.metric(AggregatorMetrics.REJECTED, reason)).isGreaterThanOrEqualTo(1);
        return r;
    }

    private byte[] definitionBytes(TargetDefinition definition) {
        return d.definitionSerde.serializer().serialize(d.config.topics().targets(), definition);
    }

    private byte[] resultBytes(ProbeResult result) {
        return d.resultSerde.serializer().serialize(d.config.topics().probeResults(), result);
    }

    private static ProbeResult result(String targetId, long latencyMicros) {
        return ProbeResult.newBuilder().setTargetId(targetId).setGeneration(ProbeFingerprint.of(WEB))
                .setRegion("default").setProberId("p").setProtocol(io.healthmesh.schema.Protocol.HTTP)
                .setStartedAtMs(AggregatorDriver.EPOCH).setOutcome(ProbeOutcome.SUCCESS).setLatencyMicros(latencyMicros)
                .build();
    }

    @Test
    void bytesThatAreNotAvroWireFormat() {
        rejectedFor(true, utf8("web-1"), utf8("{\"id\":\"web-1\"}"), "NOT_AVRO_WIRE_FORMAT");
        rejectedFor(false, utf8("web-1"), new byte[] {1, 2}, "NOT_AVRO_WIRE_FORMAT");
    }

    @Test
    void unknownSchemaId() {
        byte[] value = {0, 0, 0, 0x27, 0x0f, 2, 4, 6};
        rejectedFor(true, utf8("web-1"), value, "UNKNOWN_SCHEMA");
    }

    @Test
    void undecodableBodyWithAKnownSchema() {
        byte[] good = definitionBytes(TargetSpecs.toAvro(WEB));
        byte[] truncated = Arrays.copyOf(good, 9);
        TestRecord<byte[], byte[]> r = rejectedFor(true, utf8("web-1"), truncated, "UNDECODABLE");
        assertThat(header(r, RejectedHeaders.DETAIL)).isNotBlank();
    }

    @Test
    void definitionsThatBreakTheRules() {
        TargetDefinition zero = TargetSpecs.toAvro(WEB);
        zero.setHealthyThreshold(0);
        zero.setTimeoutMs(61_000);
        TestRecord<byte[], byte[]> r = rejectedFor(true, utf8("web-1"), definitionBytes(zero), "INVALID_DEFINITION");
        assertThat(header(r, RejectedHeaders.DETAIL)).contains("healthyThreshold: 0 (expected: 1..10)")
                .contains("timeoutMs: 61000 (expected: 100..60000)");
        TestRecord<byte[], byte[]> mismatch = rejectedFor(true, utf8("other"), definitionBytes(TargetSpecs.toAvro(WEB)),
                "INVALID_DEFINITION");
        assertThat(header(mismatch, RejectedHeaders.DETAIL)).isEqualTo("id: web-1 (expected: the record key other)");
        assertThat(d.health.isEmpty()).isTrue();
    }

    @Test
    void anInvalidUpdateKeepsTheDefinitionInForce() {
        d.at(0).define(WEB);
        d.healthEvents();
        TargetDefinition broken = TargetSpecs.toAvro(WEB);
        broken.setUnhealthyThreshold(11);
        rejectedFor(true, utf8("web-1"), definitionBytes(broken), "INVALID_DEFINITION");
        for (int i = 1; i <= 3; i++) {
            d.at(i).result(WEB, "default", Outcome.TIMEOUT, 100);
        }
        assertThat(d.healthEvents()).singleElement()
                .satisfies(e -> assertThat(e.value().getStatus()).isEqualTo(HealthStatus.UNHEALTHY));
    }

    @Test
    void badKeys() {
        rejectedFor(true, null, definitionBytes(TargetSpecs.toAvro(WEB)), "INVALID_KEY");
        rejectedFor(false, new byte[] {(byte) 0xc3, (byte) 0x28}, resultBytes(result("web-1", 1)), "INVALID_KEY");
    }

    @Test
    void resultsThatCannotBeApplied() {
        d.at(0).define(WEB);
        d.rawResults.pipeInput(utf8("nobody"), resultBytes(result("nobody", 1)));
        assertThat(d.rejected.isEmpty()).as("held a while for its definition").isTrue();
        d.at(31).define(TargetSpec.of("web-9", "pool", "10.0.0.9", 80, Protocol.HTTP));
        d.at(32); // a definition written 31 s after the result was read: the result's is not coming
        List<TestRecord<byte[], byte[]>> unknown = d.rejected.readRecordsToList();
        assertThat(unknown).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo(resultBytes(result("nobody", 1)));
            assertThat(header(r, RejectedHeaders.REASON)).isEqualTo("UNKNOWN_TARGET");
            assertThat(header(r, RejectedHeaders.SOURCE_PARTITION)).isEqualTo("0");
            assertThat(header(r, RejectedHeaders.SOURCE_OFFSET)).matches("[0-9]+");
        });
        rejectedFor(false, utf8("web-1"), resultBytes(result("someone-else", 1)), "INVALID_RESULT");
        rejectedFor(false, utf8("web-1"), resultBytes(result("web-1", -5)), "INVALID_RESULT");
        rejectedFor(false, utf8("web-1"), null, "INVALID_RESULT");
        assertThat(d.metric(AggregatorMetrics.REJECTED, "INVALID_RESULT")).isEqualTo(3);
    }

    @Test
    void processingGoesOnAfterBadInputAndOriginalHeadersAreKept() {
        d.rawTargets.pipeInput(new TestRecord<>(utf8("web-1"), utf8("garbage"),
                new org.apache.kafka.common.header.internals.RecordHeaders()
                        .add("trace", utf8("abc"))));
        TestRecord<byte[], byte[]> r = d.rejected.readRecord();
        assertThat(header(r, "trace")).isEqualTo("abc");
        d.at(0).define(WEB);
        assertThat(d.healthEvents()).singleElement()
                .satisfies(e -> assertThat(e.value().getStatus()).isEqualTo(HealthStatus.DETECTING));
        assertThat(d.metric(AggregatorMetrics.HEALTH_EVENTS, null)).isEqualTo(1);
    }

    @Test
    void aTombstoneForAnUnknownTargetIsNotAnError() {
        d.delete("never-defined");
        assertThat(d.rejected.isEmpty()).isTrue();
        assertThat(d.health.isEmpty()).isTrue();
    }
}
