package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BEHAVIOUR.md section 6, "Catching up": silence is judged on how far the task has read its input. A task that reads
 * a backlog slower than it was written (a first start, a restart after downtime, a stall) marks nothing stale whose
 * results are still in its input; a prober that goes silent, and a partition that goes quiet, still make their
 * targets stale within the window once the task has caught up.
 *
 * <p>A task that reads "slowly" is modelled the way a busy stream thread behaves: it reads a record right before each
 * punctuation (1 s apart), so the wall clock runs ahead of the records it reads.
 */
class CatchUpStalenessTest {

    /** Each target: interval 5 s, timeout 2 s, so the window is 3 x 5 + 2 = 17 s. */
    private static final int TARGETS = 20;
    private static final long INTERVAL_MS = 5_000;
    private static final long WINDOW_MS = 17_000;

    @TempDir
    Path stateDir;

    /** In-memory stores: the driver commits after every record and punctuation, and these tests make many. */
    private AggregatorDriver driver(Map<String, String> settings) {
        return new AggregatorDriver(stateDir, settings, UnaryOperator.identity(), Stores::inMemoryKeyValueStore);
    }

    private static TargetSpec target(int i) {
        return TargetSpec.of("t-" + i, "pool", "10.0.0.1", 80 + i, Protocol.HTTP);
    }

    /**
     * The records written before the task started, in timestamp order (as Kafka Streams reads them): the definitions
     * 30 s before the start, then every target's result every 5 s from 25 s to 5 s before it.
     */
    private static List<Runnable> backlog(AggregatorDriver d) {
        long start = d.now();
        List<Runnable> records = new ArrayList<>();
        for (int i = 0; i < TARGETS; i++) {
            TargetSpec t = target(i);
            records.add(() -> d.defineStamped(t, start - 30_000));
        }
        for (long at = start - 25_000; at <= start - 5_000; at += INTERVAL_MS) {
            long stamp = at;
            for (int i = 0; i < TARGETS; i++) {
                TargetSpec t = target(i);
                records.add(() -> d.resultStamped(t, "default", Outcome.SUCCESS, stamp));
            }
        }
        return records;
    }

    /** Reads {@code records} one right before each punctuation: a task busy reading, slower than real time. */
    private static void readSlowly(AggregatorDriver d, List<Runnable> records) {
        for (Runnable record : records) {
            d.at(seconds(d) + 0.999);
            record.run();
            d.at(seconds(d) + 0.001);
        }
    }

    /**
     * Reads at once what the probers wrote while the task read the backlog: every target every 5 s from the start to
     * now, in timestamp order (a task catching up faster than real time).
     */
    private static void catchUp(AggregatorDriver d, long fromMs, long lastSilentFromMs) {
        for (long at = fromMs; at <= d.now(); at += INTERVAL_MS) {
            for (int i = 0; i < TARGETS; i++) {
                if (i == 0 && at >= lastSilentFromMs) {
                    continue;
                }
                d.resultStamped(target(i), "default", Outcome.SUCCESS, at);
            }
        }
    }

    /** Every target's probe, stamped now (a task that has caught up reads results as they are written). */
    private static void probeAllLive(AggregatorDriver d, boolean skipFirst) {
        for (int i = skipFirst ? 1 : 0; i < TARGETS; i++) {
            d.resultStamped(target(i), "default", Outcome.SUCCESS, d.now());
        }
    }

    private static double seconds(AggregatorDriver d) {
        return (d.now() - AggregatorDriver.EPOCH) / 1000.0;
    }

    private static List<TestRecord<String, TargetHealth>> stale(List<TestRecord<String, TargetHealth>> events) {
        return events.stream().filter(e -> e.value() != null && e.value().getStale()).toList();
    }

    /**
     * The backlog takes 120 s of wall clock to read (one record a second): between two results of a target 20 s of
     * wall clock pass, more than its 17 s window, but only 5 s of the input. On the wall clock every target would go
     * stale and fresh again, over and over (see {@link #onTheWallClockTheSameBacklogMarksTargetsStale}).
     */
    @Test
    void aBacklogReadSlowerThanRealTimeMarksNothingStaleThatItHoldsResultsFor() {
        try (AggregatorDriver d = driver(Map.of())) {
            long start = d.now();
            readSlowly(d, backlog(d));
            assertThat(d.now() - start).as("the read took far longer than a window").isGreaterThan(100_000L);
            assertThat(d.metric(AggregatorMetrics.READ_CLOCK_BEHIND_MAX, null)).as("the metric shows the lag")
                    .isGreaterThan(100.0);
            catchUp(d, start, Long.MAX_VALUE);
            for (int second = 0; second < 40; second++) {
                d.at(seconds(d) + 1);
                if (second % 5 == 0) {
                    probeAllLive(d, false);
                }
            }
            List<TestRecord<String, TargetHealth>> events = d.healthEvents();
            assertThat(events).as("every target was decided").isNotEmpty();
            assertThat(stale(events)).isEmpty();
        }
    }

    /** With {@code staleness.max.behind.ms=0} silence counts on the wall clock: the rule this class guards against. */
    @Test
    void onTheWallClockTheSameBacklogMarksTargetsStale() {
        try (AggregatorDriver d = driver(Map.of("staleness.max.behind.ms", "0"))) {
            readSlowly(d, backlog(d));
            assertThat(stale(d.healthEvents())).hasSizeGreaterThanOrEqualTo(TARGETS);
        }
    }

    /**
     * Crash detection holds once the task has caught up: the prober of {@code t-0} goes silent after the backlog
     * (its last result is the one stamped 5 s before the start) and {@code t-0} goes stale one window after the last
     * result it read, as measured on the clock of the input (the results of the others kept coming); no other target
     * goes stale.
     */
    @Test
    void aProberThatGoesSilentWhileTheTaskIsCaughtUpMakesItsTargetStaleWithinTheWindow() {
        try (AggregatorDriver d = driver(Map.of())) {
            long start = d.now();
            readSlowly(d, backlog(d));
            long silentFrom = d.now() - 10_000; // the last result of t-0 read is stamped up to 15 s before now
            catchUp(d, start, silentFrom);
            long lastHeard = silentFrom - 1 - Math.floorMod(silentFrom - 1 - start, INTERVAL_MS);
            d.healthEvents();
            List<TestRecord<String, TargetHealth>> stale = new ArrayList<>();
            for (int second = 0; second < 30; second++) {
                d.at(seconds(d) + 1);
                if (second % 5 == 0) {
                    probeAllLive(d, true);
                }
                stale.addAll(stale(d.healthEvents()));
            }
            assertThat(stale).extracting(TestRecord::key).containsExactly("t-0");
            long at = stale.get(0).timestamp();
            assertThat(at).as("stale once the window after its last result passed, within one punctuation")
                    .isGreaterThan(lastHeard + WINDOW_MS).isLessThanOrEqualTo(lastHeard + WINDOW_MS + 1_000);
        }
    }

    /**
     * A partition that goes quiet (every prober gone) has nothing unread: once the task has read it all, the time with
     * nothing to read counts, and every target goes stale one window after its last result (within a punctuation).
     */
    @Test
    void aQuietPartitionAfterTheCatchUpMakesEveryTargetStaleWithinTheWindow() {
        try (AggregatorDriver d = driver(Map.of())) {
            long start = d.now();
            readSlowly(d, backlog(d));
            catchUp(d, start, Long.MAX_VALUE);
            long lastHeard = d.now() - Math.floorMod(d.now() - start, INTERVAL_MS);
            d.healthEvents();
            d.at(seconds(d) + (lastHeard + WINDOW_MS - d.now()) / 1000.0);
            assertThat(stale(d.healthEvents())).as("not before the window").isEmpty();
            d.at(seconds(d) + 1);
            List<TestRecord<String, TargetHealth>> stale = stale(d.healthEvents());
            assertThat(stale).hasSize(TARGETS);
            assertThat(stale).allSatisfy(e -> assertThat(e.timestamp()).isLessThanOrEqualTo(lastHeard + WINDOW_MS
                    + 1_000));
        }
    }

    /**
     * A target defined while the task reads the backlog is watched from its definition in the input: with results it
     * stays fresh; with none (no prober probes it), it goes stale one window of input after its definition, even
     * before the task has caught up.
     */
    @Test
    void aTargetDefinedDuringTheCatchUpIsWatchedFromItsDefinitionInTheInput() {
        try (AggregatorDriver d = driver(Map.of())) {
            long start = d.now();
            readSlowly(d, backlog(d));
            TargetSpec probed = TargetSpec.of("new-probed", "pool", "10.0.0.2", 80, Protocol.HTTP);
            TargetSpec orphan = TargetSpec.of("new-orphan", "pool", "10.0.0.3", 80, Protocol.HTTP);
            // written 10 s after the start, read in timestamp order among the results written since
            List<Runnable> sinceStart = new ArrayList<>();
            for (long at = start; at <= start + 35_000; at += INTERVAL_MS) {
                long stamp = at;
                if (at == start + 10_000) {
                    sinceStart.add(() -> d.defineStamped(probed, stamp));
                    sinceStart.add(() -> d.defineStamped(orphan, stamp));
                }
                for (int i = 0; i < TARGETS; i++) {
                    TargetSpec t = target(i);
                    sinceStart.add(() -> d.resultStamped(t, "default", Outcome.SUCCESS, stamp));
                }
                if (at > start + 10_000) {
                    sinceStart.add(() -> d.resultStamped(probed, "default", Outcome.SUCCESS, stamp));
                }
            }
            d.healthEvents();
            readSlowly(d, sinceStart);
            assertThat(d.now() - start).as("still far behind").isGreaterThan(250_000L);
            List<TestRecord<String, TargetHealth>> stale = stale(d.healthEvents());
            assertThat(stale).extracting(TestRecord::key).containsExactly("new-orphan");
        }
    }

    /**
     * A stall of the whole process (one punctuation after a long gap, nothing read in between) does not count as
     * silence: what the probers wrote meanwhile is read next and nothing goes stale. If nothing was written, the
     * silence is counted from the stall's end, so the quiet partition still goes stale.
     */
    @Test
    void aStallIsNotCountedAsSilence() {
        try (AggregatorDriver d = driver(Map.of())) {
            d.at(0);
            for (int i = 0; i < TARGETS; i++) {
                d.define(target(i));
            }
            d.at(1);
            probeAllLive(d, false);
            d.healthEvents();
            long stallFrom = d.now();
            d.jumpTo(61);
            assertThat(stale(d.healthEvents())).as("the stall is not silence").isEmpty();
            for (long at = stallFrom + INTERVAL_MS; at <= d.now(); at += INTERVAL_MS) {
                for (int i = 1; i < TARGETS; i++) { // t-0's prober went silent
                    d.resultStamped(target(i), "default", Outcome.SUCCESS, at);
                }
            }
            d.at(62);
            assertThat(stale(d.healthEvents())).extracting(TestRecord::key).containsExactly("t-0");
            d.at(62 + 20);
            assertThat(stale(d.healthEvents())).as("the others: a quiet partition after the stall")
                    .hasSize(TARGETS - 1);
        }
    }

    /**
     * A prober whose clock runs 60 s behind the aggregator's, reporting all the time: its records are older than the
     * task's start for the first minute, so they do not move the clock, and a target silent since the start
     * ({@code t-0}) is held off by the skew (stale 78 s after the start instead of 18 s);
     * {@code staleness.max.behind.ms} bounds that (20 s: stale after 38 s).
     */
    @Test
    void aProberWhoseClockRunsBehindDelaysStalenessByItsSkewAtMostTheBound() {
        assertThat(staleAfterStartWithASkewedProber(Map.of())).isEqualTo(78_000L);
        assertThat(staleAfterStartWithASkewedProber(Map.of("staleness.max.behind.ms", "20000"))).isEqualTo(38_000L);
    }

    private long staleAfterStartWithASkewedProber(Map<String, String> settings) {
        try (AggregatorDriver d = driver(settings)) {
            long start = d.now();
            d.define(target(0));
            d.define(target(1));
            for (int second = 1; second <= 90; second++) {
                d.at(second - 0.001);
                d.resultStamped(target(1), "default", Outcome.SUCCESS, d.now() - 60_000);
                d.at(second);
                List<TestRecord<String, TargetHealth>> stale = stale(d.healthEvents());
                if (!stale.isEmpty()) {
                    assertThat(stale).extracting(TestRecord::key).containsExactly("t-0");
                    return stale.get(0).timestamp() - start;
                }
            }
            return -1;
        }
    }
}
