package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The routable list of every group event, built from a kept page patched change by change ({@link FirstPages}),
 * against a fresh read of the group's rows after that change: random joins, leaves, group moves, status flips and
 * disabled members, with ids whose UTF-16 and UTF-8 orders differ and a page small enough to be cut.
 */
class GroupFirstPagesTest {

    /** Ids in no particular order; the last ones sort differently by UTF-16 units than by UTF-8 bytes. */
    private static final List<String> IDS = List.of("a", "b", "c", "d", "e", "f", "g", "h", "aa", "ab", "Z", "z0",
            "é", "ÿy", "€", "中文", "\uFFFD", "\uD834\uDD1E", "\uD834\uDD1Ex", "\uFF21");
    private static final List<String> GROUPS = List.of("g1", "g2", "g3");
    private static final int PAGE = 4;

    @TempDir
    Path stateDir;
    private AggregatorDriver d;

    @AfterEach
    void stop() {
        if (d != null) {
            d.close();
        }
    }

    @Test
    void everyGroupEventCarriesWhatAFreshReadOfTheRowsGives() {
        for (long seed = 1; seed <= 6; seed++) {
            stop();
            d = new AggregatorDriver(stateDir.resolve("s" + seed), Map.of("group.routable.max", Integer.toString(PAGE)),
                    UnaryOperator.identity(), Stores::inMemoryKeyValueStore);
            walk(new Random(seed), 400);
        }
    }

    private void walk(Random random, int steps) {
        KeyValueStore<Bytes, byte[]> rows = d.driver.getKeyValueStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        Map<String, TargetSpec> defined = new HashMap<>();
        int events = 0;
        int truncated = 0;
        double second = 0;
        for (int step = 0; step < steps; step++) {
            second += 0.5;
            d.at(second);
            String id = IDS.get(random.nextInt(IDS.size()));
            TargetSpec spec = defined.get(id);
            int action = random.nextInt(10);
            if (spec == null || action == 0) {
                TargetSpec next = TargetSpec.of(id, GROUPS.get(random.nextInt(GROUPS.size())), "10.0.0.1", 80,
                        Protocol.TCP).withThresholds(1, 1).withEnabled(random.nextInt(8) != 0);
                d.define(next);
                defined.put(id, next);
            } else if (action == 1) {
                d.delete(id);
                defined.remove(id);
            } else {
                d.result(spec, "default", random.nextBoolean() ? Outcome.SUCCESS : Outcome.TIMEOUT, 10);
            }
            Map<String, GroupHealth> last = new LinkedHashMap<>();
            for (TestRecord<String, GroupHealth> event : d.groupEvents()) {
                last.put(event.key(), event.value());
            }
            for (Map.Entry<String, GroupHealth> e : last.entrySet()) {
                GroupHealth event = e.getValue();
                if (event == null) {
                    assertThat(RoutableList.members(rows, e.getKey(), null, 100).ids()).isEmpty();
                    continue;
                }
                RoutableList.Page read = RoutableList.routable(rows, e.getKey(), event.getFailOpen(), null, PAGE);
                assertThat(event.getRoutable()).as("step %d, group %s", step, e.getKey())
                        .containsExactlyElementsOf(read.ids());
                assertThat(event.getRoutableTruncated()).as("step %d, group %s", step, e.getKey())
                        .isEqualTo(read.truncated());
                events++;
                truncated += read.truncated() ? 1 : 0;
            }
        }
        assertThat(events).isGreaterThan(steps / 5);
        assertThat(truncated).isGreaterThan(0);
    }

    @Test
    void aCutPageIsPatchedInPlaceAndToppedUpFromItsCursor() {
        d = new AggregatorDriver(stateDir, Map.of(), UnaryOperator.identity(), Stores::inMemoryKeyValueStore);
        KeyValueStore<Bytes, byte[]> rows = d.driver.getKeyValueStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        for (String m : List.of("m1", "m3", "m5", "m7", "m9")) {
            rows.put(GroupRows.key("p", GroupRows.MEMBER, m), GroupRows.encodeStatus(HealthStatus.HEALTHY));
            rows.put(GroupRows.key("p", GroupRows.ROUTABLE, m), GroupRows.PRESENT);
        }
        GroupState five = GroupState.of(new GroupCounts(6, 5, 1, 0, 0), PanicThreshold.NONE);
        GroupState six = five.move(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
        FirstPages pages = new FirstPages(new RoutableList(3), 100);

        // m4 comes up: the first read, a page cut after m5
        rows.put(GroupRows.key("p", GroupRows.ROUTABLE, "m4"), GroupRows.PRESENT);
        RoutableList.Page first = pages.afterChange(rows, "p", "m4", true, five, six);
        assertThat(first.ids()).containsExactly("m1", "m3", "m4");
        assertThat(first.next()).isEqualTo("m4");

        // m4 goes down again: inside the cut page, which is topped up with m5 from its cursor on
        rows.delete(GroupRows.key("p", GroupRows.ROUTABLE, "m4"));
        RoutableList.Page down = pages.afterChange(rows, "p", "m4", false, six, five);
        assertThat(down.ids()).containsExactly("m1", "m3", "m5");
        assertThat(down.next()).isEqualTo("m5");
        assertThat(pages.refills()).isEqualTo(1);

        // m2 comes up: it takes its place and m5 drops out of the page, without a read
        rows.put(GroupRows.key("p", GroupRows.ROUTABLE, "m2"), GroupRows.PRESENT);
        RoutableList.Page up = pages.afterChange(rows, "p", "m2", true, five, six);
        assertThat(up.ids()).containsExactly("m1", "m2", "m3");
        assertThat(up.next()).isEqualTo("m3");
        assertThat(pages.reads()).isEqualTo(1);
        assertThat(pages.refills()).isEqualTo(1);
        assertThat(pages.held()).isEqualTo(3);
    }

    @Test
    void codePointOrderIsTheOrderOfTheUtf8Bytes() {
        List<String> byCodePoints = new ArrayList<>(IDS);
        byCodePoints.sort(FirstPages.UTF8_ORDER);
        List<String> byBytes = new ArrayList<>(IDS);
        byBytes.sort((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
                b.getBytes(StandardCharsets.UTF_8)));
        assertThat(byCodePoints).containsExactlyElementsOf(byBytes);
        // and not String's own order, which puts U+FF21 after the surrogate pair of U+1D11E
        List<String> byUnits = new ArrayList<>(IDS);
        byUnits.sort(String::compareTo);
        assertThat(byUnits).isNotEqualTo(byBytes);
    }

    @Test
    void patchedPagesAreNotReadAgainAndTheBudgetEvictsTheLeastRecentlyUsed() {
        d = new AggregatorDriver(stateDir, Map.of(), UnaryOperator.identity(), Stores::inMemoryKeyValueStore);
        KeyValueStore<Bytes, byte[]> rows = d.driver.getKeyValueStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        // two groups of five HEALTHY members in the rows, as the group processor writes them
        for (String group : List.of("p", "q")) {
            for (int i = 0; i < 5; i++) {
                rows.put(GroupRows.key(group, GroupRows.MEMBER, "m" + i), GroupRows.encodeStatus(HealthStatus.HEALTHY));
                rows.put(GroupRows.key(group, GroupRows.ROUTABLE, "m" + i), GroupRows.PRESENT);
            }
        }
        GroupState five = GroupState.of(new GroupCounts(5, 5, 0, 0, 0), PanicThreshold.NONE);
        GroupState four = five.move(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
        FirstPages pages = new FirstPages(new RoutableList(1_000), 8);

        // m2 goes down in p: the first change reads the page, the way back is patched
        rows.delete(GroupRows.key("p", GroupRows.ROUTABLE, "m2"));
        assertThat(pages.afterChange(rows, "p", "m2", false, five, four).ids())
                .containsExactly("m0", "m1", "m3", "m4");
        rows.put(GroupRows.key("p", GroupRows.ROUTABLE, "m2"), GroupRows.PRESENT);
        assertThat(pages.afterChange(rows, "p", "m2", true, four, five).ids())
                .containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(pages.reads()).isEqualTo(1);
        assertThat(pages.held()).isEqualTo(5);

        // q's page does not fit beside p's in 8 ids: p, the least recently used, goes
        rows.delete(GroupRows.key("q", GroupRows.ROUTABLE, "m0"));
        assertThat(pages.afterChange(rows, "q", "m0", false, five, four).ids())
                .containsExactly("m1", "m2", "m3", "m4");
        assertThat(pages.keptIds("p")).isNull();
        assertThat(pages.keptIds("q")).containsExactly("m1", "m2", "m3", "m4");
        assertThat(pages.held()).isEqualTo(4);

        // counters that disagree with the kept page make it read again, not trusted
        rows.put(GroupRows.key("q", GroupRows.ROUTABLE, "m0"), GroupRows.PRESENT);
        assertThat(pages.afterChange(rows, "q", "m0", true, four, GroupState.of(new GroupCounts(6, 6, 0, 0, 0), PanicThreshold.NONE)).ids())
                .containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(pages.reads()).isEqualTo(3);
    }
}
