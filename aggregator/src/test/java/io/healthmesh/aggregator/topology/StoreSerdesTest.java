package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.core.health.FailOpenReason;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.QuorumPolicy;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreSerdesTest {

    private final StoredTargetSerde serde = new StoredTargetSerde();

    private TargetHealthState roundTrip(TargetHealthState s) {
        StoredTarget read = serde.deserializer().deserialize("t", serde.serializer().serialize("t", new StoredTarget(s, 0)));
        return read == null ? null : read.state();
    }

    @Test
    void targetStatesSurviveARoundTripWhateverTheyHoldOnRandomHistories() {
        Random random = new Random(5);
        Outcome[] outcomes = Outcome.values();
        for (int round = 0; round < 200; round++) {
            TargetEssentials spec = new TargetEssentials("t-" + round, "g", true,
                    new Thresholds(1 + random.nextInt(10), 1 + random.nextInt(10)), 1_000, 500,
                    random.nextBoolean() ? List.of() : List.of("eu", "us", "ap"),
                    new QuorumRule(QuorumPolicy.values()[random.nextInt(4)], 1 + random.nextInt(3)), random.nextLong());
            TargetHealthState s = TargetHealthState.create(spec, 5, 6).after();
            assertThat(roundTrip(s)).isEqualTo(s);
            long t = 10;
            for (int i = 0; i < 30; i++, t += 700) {
                String region = List.of("eu", "us", "ap").get(random.nextInt(3));
                s = s.apply(new ProbeObservation(region, spec.generation(), outcomes[random.nextInt(outcomes.length)],
                        t, random.nextInt(3_000_000), random.nextBoolean() ? null : "détail " + i), t + 300).after();
                if (random.nextInt(5) == 0) {
                    s = s.checkStaleness(t + random.nextInt(10_000), 0, StalenessRule.DEFAULT).after();
                }
                assertThat(roundTrip(s)).isEqualTo(s);
            }
        }
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", null))).isNull();
    }

    @Test
    void storedTargetsCarryTheHistoryNumber() {
        StoredTargetSerde stored = serde;
        TargetHealthState s = TargetHealthState.create(new TargetEssentials("t", "g", true, new Thresholds(2, 3),
                1_000, 500, List.of("eu"), QuorumRule.MAJORITY, 7), 5, 6).after();
        StoredTarget row = new StoredTarget(s, 123_456_789_012L);
        byte[] bytes = stored.serializer().serialize("t", row);
        assertThat(bytes[0]).as("format version").isEqualTo((byte) StoredTargetSerde.VERSION);
        assertThat(stored.deserializer().deserialize("t", bytes)).isEqualTo(row);
        // a number cut off, or below 0, is a corrupt row with a clear error
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        assertThatThrownBy(() -> stored.deserializer().deserialize("t", cut))
                .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
                .hasMessageContaining("target-health state: truncated or corrupt");
        byte[] negative = stored.serializer().serialize("t", new StoredTarget(s, 0));
        Arrays.fill(negative, negative.length - 8, negative.length, (byte) 0xFF); // -1
        assertThatThrownBy(() -> stored.deserializer().deserialize("t", negative))
                .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
                .hasMessageContaining("historyNext: -1");
    }

    @Test
    void aStateOfAnEarlierFormatIsRefusedNamingItsVersion() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeUTF("t1");
            out.writeUTF("web");
        }
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", bytes.toByteArray()))
                .isInstanceOf(SerializationException.class)
                .hasMessage("target-health state format version: 1 (expected: 4)");
    }

    @Test
    void groupsAndMembershipChangesSurviveARoundTrip() {
        GroupStateSerde groups = new GroupStateSerde();
        GroupState g = GroupState.EMPTY.move(null, HealthStatus.HEALTHY).move(null, HealthStatus.DISABLED)
                .move(null, HealthStatus.UNHEALTHY).move(null, HealthStatus.DETECTING);
        assertThat(groups.deserializer().deserialize("t", groups.serializer().serialize("t", g))).isEqualTo(g);
        GroupState panic = GroupState.EMPTY.withThreshold(new PanicThreshold(60, 2, 7, 3))
                .move(null, HealthStatus.HEALTHY).move(null, HealthStatus.UNHEALTHY);
        assertThat(panic.failOpenReason()).isEqualTo(FailOpenReason.BELOW_MIN_HEALTHY);
        assertThat(groups.deserializer().deserialize("t", groups.serializer().serialize("t", panic))).isEqualTo(panic);
        GroupState policyOnly = GroupState.EMPTY.withThreshold(new PanicThreshold(null, 4, 0, 1));
        assertThat(groups.deserializer().deserialize("t", groups.serializer().serialize("t", policyOnly)))
                .isEqualTo(policyOnly);
        // a row written before thresholds existed: the five counters behind version 1
        byte[] countsOnly = {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThat(groups.deserializer().deserialize("t", countsOnly)).isEqualTo(
                new GroupState(new GroupCounts(2, 0, 2, 0, 0), PanicThreshold.NONE, FailOpenReason.NO_HEALTHY_MEMBER));
        MembershipChangeSerde changes = new MembershipChangeSerde();
        for (AggregatorOutput.GroupChange change : List.of(new AggregatorOutput.ThresholdChange(PanicThreshold.NONE),
                new AggregatorOutput.ThresholdChange(new PanicThreshold(30, null, 5, 1)),
                new AggregatorOutput.ThresholdChange(new PanicThreshold(null, 3, 0, 2)),
                new AggregatorOutput.MembershipChange("web-1", HealthStatus.DISABLED),
                new AggregatorOutput.MembershipChange("web-1", null))) {
            assertThat(changes.deserializer().deserialize("t", changes.serializer().serialize("t", change)))
                    .isEqualTo(change);
        }
        for (HealthStatus status : HealthStatus.values()) {
            assertThat(GroupRows.decodeStatus(GroupRows.encodeStatus(status))).isEqualTo(status);
        }
        assertThatThrownBy(() -> GroupRows.decodeStatus(new byte[] {1, 9}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("status code 0..3");
        for (MembershipChange c : List.of(new MembershipChange("a", HealthStatus.UNHEALTHY), new MembershipChange("a", null))) {
            assertThat(changes.deserializer().deserialize("t", changes.serializer().serialize("t", c))).isEqualTo(c);
        }
    }

    @Test
    void corruptOrForeignBytesFailWithASerializationException() {
        byte[] good = serde.serializer().serialize("t", new StoredTarget(TargetHealthState.create(new TargetEssentials(
                "t", "g", true, new Thresholds(3, 3), 1_000, 500, List.of(), QuorumRule.MAJORITY, 1L), 0, 0).after(), 0));
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", Arrays.copyOf(good, good.length - 3)))
                .isInstanceOf(SerializationException.class).hasMessageContaining("truncated or corrupt");
        byte[] future = good.clone();
        future[0] = 9;
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", future))
                .isInstanceOf(SerializationException.class)
                .hasMessage("target-health state format version: 9 (expected: 4)");
    }

    @Test
    void valuesFarAboveWriteUtfsLimitRoundTrip() {
        // DataOutputStream.writeUTF throws above 65,535 encoded bytes: a long valid name must still be stored
        String huge = "x".repeat(70_000);
        TargetEssentials spec = new TargetEssentials("t-" + huge, "g-" + huge, true, new Thresholds(3, 3), 1_000, 500,
                List.of(huge, "é".repeat(40_000)), QuorumRule.MAJORITY, 7L);
        TargetHealthState s = TargetHealthState.create(spec, 5, 6).after()
                .apply(new ProbeObservation(huge, 7L, Outcome.SUCCESS, 10, 1_000, "d".repeat(100_000)), 20).after();
        assertThat(roundTrip(s)).isEqualTo(s);
    }

    @Test
    void membershipChangesOfAnEarlierFormatAreRefused() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeUTF("web-1");
            out.writeBoolean(true);
            out.writeUTF("HEALTHY");
        }
        assertThatThrownBy(() -> new MembershipChangeSerde().deserializer().deserialize("t", bytes.toByteArray()))
                .isInstanceOf(SerializationException.class)
                .hasMessage("membership change format version: 1 (expected: 2)");
    }

    @Test
    void aCorruptLengthOrCountFailsBeforeAllocating() {
        byte[] hugeString = {2, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 'a'};
        assertThatThrownBy(() -> new MembershipChangeSerde().deserializer().deserialize("t", hugeString))
                .isInstanceOf(SerializationException.class).hasMessageContaining("truncated or corrupt");
        byte[] negativeCounts = {1, 0, 0, 0, 1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0};
        assertThatThrownBy(() -> new GroupStateSerde().deserializer().deserialize("t", negativeCounts))
                .isInstanceOf(SerializationException.class).hasMessageContaining("truncated or corrupt");
    }
}
