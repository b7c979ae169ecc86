package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Groups far larger than one store value could hold: membership is one row per member, the counters are
 * kept incrementally, and every {@code GroupHealth} record stays small, its routable list cut at
 * {@code group.routable.max} with {@code routableTruncated} set. The 100,000-member case runs on in-memory stores
 * (same topology, same key order); the smaller one on RocksDB, as in production.
 */
class HugeGroupTest {

    /** Every record of the group-state topic must stay below this (the bound). */
    private static final int MAX_RECORD_BYTES = 256 * 1024;

    @TempDir
    Path stateDir;
    private AggregatorDriver d;
    private int largestRecord;

    @AfterEach
    void stop() {
        if (d != null) {
            d.close();
        }
    }

    private static TargetSpec member(int i, String group) {
        // thresholds of 1: one result moves a member, so the test changes statuses cheaply
        return TargetSpec.of(String.format("m%06d", i), group, "10.0.0.1", 80, Protocol.TCP).withThresholds(1, 1);
    }

    /** The group-state records so far, with their encoded sizes checked. */
    private List<GroupHealth> groupRecords(TestOutputTopic<String, byte[]> raw, Deserializer<GroupHealth> decoder) {
        List<GroupHealth> events = new ArrayList<>();
        for (TestRecord<String, byte[]> r : raw.readRecordsToList()) {
            assertThat(r.value().length).as("bytes of a group-state record").isLessThan(MAX_RECORD_BYTES);
            largestRecord = Math.max(largestRecord, r.value().length);
            events.add(decoder.deserialize("group-state", r.value()));
        }
        return events;
    }

    /** The size: about 3 minutes on a loaded 2-core machine (the test driver's cost per record), so long. */
    @Test
    @Tag("long")
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void aGroupOf100000MembersKeepsEveryRecordSmallAndItsCountersRight() {
        hugeGroup(Integer.getInteger("hugeGroup.members", 100_000));
    }

    /** The same with 10,000 members: the default tier's variant (the list is cut at 1,000 all the same). */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aGroupOf10000MembersKeepsEveryRecordSmallAndItsCountersRight() {
        hugeGroup(10_000);
    }

    private void hugeGroup(int size) {
        // in-memory stores: the test driver commits, so flushes RocksDB, after every record (minutes for 100,000)
        d = new AggregatorDriver(stateDir, Map.of(), UnaryOperator.identity(), Stores::inMemoryKeyValueStore);
        TestOutputTopic<String, byte[]> raw = d.driver.createOutputTopic(d.config.topics().groupState(),
                new StringDeserializer(), new ByteArrayDeserializer());
        Deserializer<GroupHealth> decoder = AvroSerde.forValues(GroupHealth.class, d.serdeConfig).deserializer();
        // a disabled member first: routable, so the group never fails open and DETECTING joiners change nothing
        d.at(0).define(member(0, "huge").withEnabled(false));
        long start = System.nanoTime();
        for (int i = 1; i < size; i++) {
            d.define(member(i, "huge"));
        }
        long joinNanos = System.nanoTime() - start;
        List<GroupHealth> joined = groupRecords(raw, decoder);
        assertThat(joined).as("only the first member changed the routable set").hasSize(1);
        GroupCounts counts = d.driver.<String, GroupState>getKeyValueStore(AggregatorTopology.GROUP_STORE).get("huge")
                .counts();
        assertThat(counts).isEqualTo(new GroupCounts(size, 0, 0, size - 1, 1));

        // 3,000 members turn healthy (requires size > 3,000), one result each: each changes the routable set, so each makes an event
        int turned = 3_000;
        d.at(1);
        start = System.nanoTime();
        for (int i = 1; i <= turned; i++) {
            d.result(member(i, "huge"), "default", Outcome.SUCCESS, 5);
        }
        long resultNanos = System.nanoTime() - start;
        List<GroupHealth> events = groupRecords(raw, decoder);
        assertThat(events).hasSize(turned);
        for (int i = 0; i < turned; i++) {
            GroupHealth e = events.get(i);
            int routable = i + 2; // the disabled one and i + 1 healthy
            assertThat(e.getMembers()).isEqualTo(size);
            assertThat(e.getHealthy()).isEqualTo(i + 1);
            assertThat(e.getDisabled()).isEqualTo(1);
            assertThat(e.getDetecting()).isEqualTo(size - 1 - (i + 1));
            assertThat(e.getFailOpen()).isFalse();
            assertThat(e.getRoutable()).hasSize(Math.min(routable, RoutableList.DEFAULT_MAX_IDS));
            assertThat(e.getRoutableTruncated()).isEqualTo(routable > RoutableList.DEFAULT_MAX_IDS);
            assertThat(e.getRoutable().get(0)).isEqualTo("m000000");
        }
        GroupHealth last = events.get(turned - 1);
        List<String> firstThousand = new ArrayList<>();
        for (int i = 0; i < RoutableList.DEFAULT_MAX_IDS; i++) {
            firstThousand.add(String.format("m%06d", i));
        }
        assertThat(last.getRoutable()).as("the first ids in order").isEqualTo(firstThousand);

        // one goes down: the event still counts everything
        d.at(2).result(member(5, "huge"), "default", Outcome.TIMEOUT, 5);
        List<GroupHealth> down = groupRecords(raw, decoder);
        assertThat(down).singleElement().satisfies(e -> {
            assertThat(e.getHealthy()).isEqualTo(turned - 1);
            assertThat(e.getUnhealthy()).isEqualTo(1);
            assertThat(e.getRoutable()).doesNotContain("m000005").hasSize(RoutableList.DEFAULT_MAX_IDS)
                    .last().isEqualTo("m001000");
        });
        // beyond the cut: the counts move, the first ids stay; then one inside the cut comes back
        d.at(3).result(member(2_500, "huge"), "default", Outcome.TIMEOUT, 5);
        d.result(member(5, "huge"), "default", Outcome.SUCCESS, 5);
        List<GroupHealth> more = groupRecords(raw, decoder);
        assertThat(more).hasSize(2);
        assertThat(more.get(0).getUnhealthy()).isEqualTo(2);
        assertThat(more.get(0).getRoutable()).doesNotContain("m000005").last().isEqualTo("m001000");
        assertThat(more.get(1).getRoutable()).isEqualTo(firstThousand);
        assertThat(more.get(1).getRoutableTruncated()).isTrue();
        System.out.printf("HugeGroupTest: %d members joined in %d ms (%.0f/s), %d results making group events"
                        + " in %d ms (%.0f/s); largest group-state record %d bytes%n", size, joinNanos / 1_000_000,
                size * 1e9 / joinNanos, turned, resultNanos / 1_000_000, turned * 1e9 / resultNanos, largestRecord);
    }

    @Test
    void aFailOpenGroupCutsItsListOfEveryMemberAndLeavesItWhenOneRecovers() {
        d = new AggregatorDriver(stateDir, Map.of("group.routable.max", "50"));
        TestOutputTopic<String, byte[]> raw = d.driver.createOutputTopic(d.config.topics().groupState(),
                new StringDeserializer(), new ByteArrayDeserializer());
        Deserializer<GroupHealth> decoder = AvroSerde.forValues(GroupHealth.class, d.serdeConfig).deserializer();
        d.at(0);
        for (int i = 0; i < 120; i++) {
            d.define(member(i, "open"));
        }
        // all DETECTING: failing open, every join changes the routable set (every member)
        List<GroupHealth> joins = groupRecords(raw, decoder);
        assertThat(joins).hasSize(120);
        GroupHealth open = joins.get(119);
        assertThat(open.getFailOpen()).isTrue();
        assertThat(open.getRoutable()).hasSize(50).first().isEqualTo("m000000");
        assertThat(open.getRoutableTruncated()).isTrue();
        assertThat(joins.get(49).getRoutableTruncated()).isFalse();
        assertThat(joins.get(50).getRoutableTruncated()).isTrue();

        d.at(1).result(member(77, "open"), "default", Outcome.SUCCESS, 5);
        GroupHealth closed = groupRecords(raw, decoder).get(0);
        assertThat(closed.getFailOpen()).isFalse();
        assertThat(closed.getRoutable()).containsExactly("m000077");
        assertThat(closed.getRoutableTruncated()).isFalse();

        // the recovered member leaves: open again, and the list restarts at the first member
        d.at(2).delete("m000077");
        GroupHealth reopened = groupRecords(raw, decoder).get(0);
        assertThat(reopened.getFailOpen()).isTrue();
        assertThat(reopened.getMembers()).isEqualTo(119);
        assertThat(reopened.getRoutable()).hasSize(50).doesNotContain("m000077");
        // every member leaves: the last one tombstones the group and its rows are gone
        for (int i = 0; i < 120; i++) {
            d.delete(String.format("m%06d", i));
        }
        List<TestRecord<String, byte[]>> tail = raw.readRecordsToList();
        assertThat(tail.get(tail.size() - 1).value()).isNull();
        assertThat(d.driver.<String, GroupState>getKeyValueStore(AggregatorTopology.GROUP_STORE).get("open")).isNull();
        assertThat(d.driver.getKeyValueStore(AggregatorTopology.GROUP_MEMBERS_STORE).approximateNumEntries())
                .isZero();
    }
}
