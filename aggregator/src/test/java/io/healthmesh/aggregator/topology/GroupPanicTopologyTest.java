package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The panic threshold through the topology: a policy record on the groups topic, the group event with its reason,
 * hysteresis decided from the stored state, policy changes and deletion, bad policy records rejected with their bytes.
 */
class GroupPanicTopologyTest {

    @TempDir
    Path stateDir;
    private AggregatorDriver d;
    private double second;
    private final List<TargetSpec> members = new ArrayList<>();

    @BeforeEach
    void start() {
        d = new AggregatorDriver(stateDir);
        for (int i = 0; i < 10; i++) {
            members.add(TargetSpec.of("m" + i, "pool", "10.0.0." + (i + 1), 80, Protocol.TCP));
        }
    }

    @AfterEach
    void stop() {
        d.close();
    }

    /** Three results for each spec, one second apart, so each reaches the threshold of 3. */
    private void three(Outcome outcome, List<TargetSpec> specs) {
        for (int i = 0; i < 3; i++) {
            second += 1;
            for (TargetSpec spec : specs) {
                d.at(second).result(spec, "default", outcome, 100);
            }
        }
    }

    private GroupHealth last() {
        List<TestRecord<String, GroupHealth>> events = d.groupEvents();
        assertThat(events).isNotEmpty();
        return events.get(events.size() - 1).value();
    }

    /** Ten members, all HEALTHY, events read. */
    private void tenHealthy() {
        d.at(0);
        members.forEach(d::define);
        three(Outcome.SUCCESS, members);
        assertThat(last().getFailOpen()).isFalse();
    }

    @Test
    void belowThePercentageTheGroupFailsOpenWithItsReasonAndLeavesOnlyAboveTheMargin() {
        d.policy("pool", new PanicThreshold(50, null, 10, 0));
        tenHealthy();

        three(Outcome.TIMEOUT, members.subList(0, 5));
        GroupHealth atHalf = last();
        assertThat(atHalf.getFailOpen()).as("5 of 10 is at 50 %").isFalse();
        assertThat(atHalf.getFailOpenReason()).isNull();
        assertThat(atHalf.getRoutable()).hasSize(5);

        three(Outcome.TIMEOUT, members.subList(5, 6));
        GroupHealth panic = last();
        assertThat(panic.getFailOpen()).isTrue();
        assertThat(panic.getFailOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
        assertThat(panic.getRoutable()).as("every member").hasSize(10);
        assertThat(panic.getHealthy()).isEqualTo(4);

        three(Outcome.SUCCESS, members.subList(5, 6));
        assertThat(d.groupEvents()).as("back at 50 %: within the margin, nothing to announce").isEmpty();

        three(Outcome.SUCCESS, members.subList(4, 5));
        GroupHealth left = last();
        assertThat(left.getFailOpen()).as("60 %").isFalse();
        assertThat(left.getFailOpenReason()).isNull();
        assertThat(left.getRoutable()).containsExactly("m4", "m5", "m6", "m7", "m8", "m9");
    }

    @Test
    void noHealthyMemberIsNamedAsSuchAndWithoutAPolicyNothingChanges() {
        tenHealthy();
        three(Outcome.TIMEOUT, members.subList(0, 9));
        assertThat(last().getFailOpen()).as("no policy: one healthy member is enough").isFalse();
        three(Outcome.TIMEOUT, members.subList(9, 10));
        GroupHealth none = last();
        assertThat(none.getFailOpen()).isTrue();
        assertThat(none.getFailOpenReason()).isEqualTo("NO_HEALTHY_MEMBER");
    }

    @Test
    void aPolicyRecordAloneReDecidesTheGroupAndItsDeletionRestoresTheDefault() {
        tenHealthy();
        three(Outcome.TIMEOUT, members.subList(0, 7));
        assertThat(last().getRoutable()).hasSize(3);

        d.policy("pool", new PanicThreshold(null, 4, 0, 1));
        GroupHealth panic = last();
        assertThat(panic.getFailOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
        assertThat(panic.getRoutable()).hasSize(10);

        d.policy("pool", new PanicThreshold(null, 3, 0, 1));
        assertThat(d.groupEvents()).as("3 meets the count but not count + margin: still in panic").isEmpty();

        d.policy("pool", PanicThreshold.NONE);
        GroupHealth deleted = last();
        assertThat(deleted.getFailOpen()).isFalse();
        assertThat(deleted.getRoutable()).containsExactly("m7", "m8", "m9");
    }

    @Test
    void aPolicyForAGroupWithoutMembersWaitsForThem() {
        d.policy("pool", new PanicThreshold(80, null, 0, 0));
        assertThat(d.groupEvents()).isEmpty();
        d.at(0);
        members.subList(0, 5).forEach(d::define);
        three(Outcome.SUCCESS, members.subList(0, 4));
        GroupHealth fourOfFive = last();
        assertThat(fourOfFive.getFailOpen()).as("4 of 5 = 80 %").isFalse();
        three(Outcome.TIMEOUT, members.subList(0, 1));
        assertThat(last().getFailOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
    }

    @Test
    void badPolicyRecordsAreRejectedWithTheirBytesAndThePolicyInForceStays() {
        d.policy("pool", new PanicThreshold(50, null, 0, 0));
        tenHealthy();
        AvroSerde<GroupPolicy> serde = AvroSerde.forValues(GroupPolicy.class, d.serdeConfig);
        byte[] outOfRange = serde.serializer().serialize(d.config.topics().groups(),
                GroupPolicy.newBuilder().setGroupId("pool").setMinHealthyPercent(101).build());
        byte[] neither = serde.serializer().serialize(d.config.topics().groups(),
                GroupPolicy.newBuilder().setGroupId("pool").build());
        byte[] otherKey = serde.serializer().serialize(d.config.topics().groups(),
                GroupPolicies.toAvro("other", new PanicThreshold(10, null, 0, 0)));
        byte[] garbage = {0, 0, 0, 0, 9, 1, 2, 3};
        byte[] huge = new byte[GroupPolicies.MAX_POLICY_BYTES + 1];
        for (byte[] bad : List.of(outOfRange, neither, otherKey, garbage, huge)) {
            d.rawPolicies.pipeInput("pool".getBytes(StandardCharsets.UTF_8), bad);
        }
        var rejected = d.rejected.readRecordsToList();
        assertThat(rejected).hasSize(5);
        assertThat(rejected.get(0).value()).isEqualTo(outOfRange);
        assertThat(header(rejected.get(0), RejectedHeaders.REASON)).isEqualTo("INVALID_GROUP_POLICY");
        assertThat(header(rejected.get(0), RejectedHeaders.DETAIL)).isEqualTo("minHealthyPercent: 101 (expected: 1..100)");
        assertThat(header(rejected.get(1), RejectedHeaders.DETAIL)).contains("both absent");
        assertThat(header(rejected.get(2), RejectedHeaders.DETAIL)).contains("expected: the record key pool");
        assertThat(Arrays.equals(rejected.get(3).value(), garbage)).isTrue();
        assertThat(header(rejected.get(4), RejectedHeaders.DETAIL)).contains("expected: at most 1024");
        assertThat(d.groupEvents()).isEmpty();

        // the 50 % policy is still in force
        three(Outcome.TIMEOUT, members.subList(0, 6));
        assertThat(last().getFailOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
        serde.close();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
