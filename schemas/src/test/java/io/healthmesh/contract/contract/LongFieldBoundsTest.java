package io.healthmesh.contract.contract;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.ResultBounds;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code long} of the contract stays within {@code ±2^53}, so that every Confluent client, JavaScript's
 * included, decodes every topic with its default settings. Timestamps (epoch ms) are below 2^53 until the year
 * 287,396 and the aggregator refuses results dated in the future; every other long is listed here with why it is
 * bounded, and a long added to the contract without a row fails this test.
 */
class LongFieldBoundsTest {

    private static final long MAX_SAFE = (1L << 53) - 1;
    /** 9999-12-31T23:59:59.999Z, the last instant an X.509 certificate can name. */
    private static final long LAST_X509_MS = 253_402_300_799_999L;

    /** Longs that are epoch-millisecond timestamps. */
    private static final Set<String> TIMESTAMPS = Set.of("ProbeResult.startedAtMs", "TargetHealth.sinceMs",
            "TargetHealth.lastResultAtMs", "TargetHealth.updatedAtMs", "GroupHealth.updatedAtMs",
            "RegionHealth.lastResultAtMs", "MaintenanceInForce.startMs", "MaintenanceInForce.untilMs",
            "Maintenance.startMs", "Maintenance.endMs", "Maintenance.createdAtMs",
            // a certificate's notAfter: X.509 dates end in the year 9999, far below 2^53 ms
            "ProbeResult.certNotAfterMs", "ProbeResult.chainNotAfterMs");

    /** Every other long, with the largest value it can take. */
    private static final Map<String, Long> BOUNDED = Map.of(
            "ProbeResult.generation", ProbeFingerprint.MAX,
            "TargetHealth.generation", ProbeFingerprint.MAX,
            // durations of one probe: at most the timeout, refused by the aggregator beyond 2^53 - 1
            "ProbeResult.latencyMicros", ResultBounds.MAX_SAFE_LONG,
            "ProbeResult.connectMicros", TargetValidator.MAX_TIMEOUT_MS * 1_000L,
            "ProbeResult.tlsMicros", TargetValidator.MAX_TIMEOUT_MS * 1_000L,
            "ProbeResult.firstByteMicros", TargetValidator.MAX_TIMEOUT_MS * 1_000L,
            "TargetHealth.latencyMicros", ResultBounds.MAX_SAFE_LONG,
            // how late a probe started: a process stalled for 285 years would reach 2^53 microseconds
            "ProbeResult.schedulingLagMicros", MAX_SAFE,
            // a certificate's notAfter: X.509 dates end with the year 9999 (GeneralizedTime has four digits)
            "ProbeResult.certNotAfterMs", LAST_X509_MS,
            "ProbeResult.chainNotAfterMs", LAST_X509_MS);

    private static Set<String> longFields() {
        Set<String> out = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        Stream.of(TargetDefinition.getClassSchema(), ProbeResult.getClassSchema(), TargetHealth.getClassSchema(),
                GroupHealth.getClassSchema(), Maintenance.getClassSchema()).forEach(s -> collect(s, seen, out));
        return out;
    }

    private static void collect(Schema schema, Set<String> seen, Set<String> out) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                for (Schema.Field field : schema.getFields()) {
                    if (isLong(field.schema())) {
                        out.add(schema.getName() + "." + field.name());
                    }
                    collect(field.schema(), seen, out);
                }
            }
            case UNION -> schema.getTypes().forEach(t -> collect(t, seen, out));
            case ARRAY -> collect(schema.getElementType(), seen, out);
            case MAP -> collect(schema.getValueType(), seen, out);
            default -> { }
        }
    }

    private static boolean isLong(Schema schema) {
        return schema.getType() == Schema.Type.LONG
                || schema.getType() == Schema.Type.UNION && schema.getTypes().stream().anyMatch(LongFieldBoundsTest::isLong);
    }

    @Test
    void everyLongIsATimestampOrHasAKnownBoundWithin2To53() {
        Set<String> unclassified = new TreeSet<>(longFields());
        unclassified.removeAll(TIMESTAMPS);
        unclassified.removeAll(BOUNDED.keySet());
        assertThat(unclassified).as("long fields with no stated bound").isEmpty();
        assertThat(BOUNDED).allSatisfy((field, max) -> assertThat(max).as(field).isBetween(0L, MAX_SAFE));
        assertThat(System.currentTimeMillis() * 1_000).as("epoch ms has room even in micros").isLessThan(MAX_SAFE);
    }

    @Test
    void generationsOfEveryProtocolAreWithin53Bits() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            Protocol protocol = Protocol.values()[random.nextInt(Protocol.values().length)];
            TargetSpec spec = TargetSpec.of("t-" + i, "g", "10.0." + random.nextInt(256) + "." + random.nextInt(256),
                    1 + random.nextInt(65_535), protocol)
                    .withHttp(new HttpSpec(HttpMethod.GET, "/" + random.nextInt(), null, List.of("2xx"), random.nextBoolean(),
                            Map.of("X-N", Integer.toString(random.nextInt())), null, random.nextBoolean()));
            assertThat(ProbeFingerprint.of(spec)).isBetween(0L, ProbeFingerprint.MAX);
        }
    }
}
