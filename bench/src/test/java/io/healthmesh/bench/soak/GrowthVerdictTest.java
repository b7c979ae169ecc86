package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GrowthVerdictTest {

    /**
     * A warm-up of 60 s, a lag bound of 1,000 records, a machine of 2 cores (the series' load average is 0.5), a
     * prober with up to 1,000 probes in flight, heaps of 256 MiB, a RocksDB budget of 256 MiB (the series' RSS is
     * four times their level of about 100).
     */
    private static final GrowthVerdict VERDICT =
            new GrowthVerdict(SoakBounds.defaults(Duration.ofSeconds(60), 1_000, 2, 1_000, 256, 256));

    /** A level of 100 with a few per cent of noise that does not trend. */
    private static double flat(double t) {
        return 100 + 3 * Math.sin(t / 7.0);
    }

    @Test
    void flatSeriesPass() {
        List<SoakSample> samples = new Series().add(0, 1_800, 10, 11, 21, GrowthVerdictTest::flat, 20).samples();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).isEmpty();
        assertThat(result.passed()).isTrue();
        assertThat(result.judged()).anySatisfy(l -> assertThat(l).startsWith("prober heap after GC: 1 of 1 lifetimes"));
    }

    @Test
    void aSteadyLeakFailsNamingTheSeriesAndTheLifetime() {
        // 1 MiB a minute for half an hour: 28 MiB over the window after warm-up, past max(16, 10 % of ~115)
        List<SoakSample> samples = new Series().add(0, 1_800, 10, 11, 21, t -> 100 + t / 60, 20).samples();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.passed()).isFalse();
        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("prober heap after GC grew by 28.8 MiB over 28.8 min of lifetime 1 (pid 11"));
        assertThat(result.failures()).anySatisfy(f -> assertThat(f).startsWith("aggregator heap after GC grew"));
    }

    @Test
    void restartsAndTheClimbAfterEachAreNotGrowth() {
        // every lifetime starts low, climbs during its warm-up and then stays flat; a line through all of it rises
        Series series = new Series();
        for (int life = 0; life < 6; life++) {
            series.add(life * 300, life * 300 + 300, 10, 11 + life, 21 + life / 2,
                    t -> t < 50 ? 20 + t * 1.6 : flat(t), 20);
        }
        List<SoakSample> samples = series.samples();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).isEmpty();
        assertThat(result.judged()).anySatisfy(l -> assertThat(l).startsWith("prober RSS: 6 of 6 lifetimes judged"));
    }

    @Test
    void aLeakThatEachRestartHidesStillFailsWithinTheLifetime() {
        Series series = new Series();
        for (int life = 0; life < 3; life++) {
            series.add(life * 900, life * 900 + 900, 10, 11 + life, 21, t -> 100 + t / 20, 20);
        }

        GrowthVerdict.Result result = VERDICT.judge(series.samples());

        assertThat(result.failures()).anySatisfy(f -> assertThat(f).contains("prober threads grew by")
                .contains("of lifetime 2 (pid 12"));
    }

    @Test
    void aLevelThatRisesFromOneLifetimeToTheNextFails() {
        Series series = new Series();
        series.add(0, 600, 10, 11, 21, t -> 100, 20);
        series.add(600, 1_200, 10, 12, 21, t -> 100, 20);
        series.add(1_200, 1_800, 10, 13, 21, t -> 140, 20);

        GrowthVerdict.Result result = VERDICT.judge(series.samples());

        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("prober heap after GC settled at 140.0 MiB in lifetime 3, 40.0 MiB above lifetime 1's"));
    }

    @Test
    void aBacklogThatDrainsWithinTheWarmUpPassesWhereverItStarts() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 600, 10, 11, 21, t -> 100, 20).samples());
        samples.addAll(new Series().add(600, 1_200, 10, 11, 22, t -> 100, 20).samples());
        // the aggregator's restart at 600 s, and a role paused by a loaded machine at 900 s: back within 60 s
        samples.replaceAll(s -> s.seconds() >= 600 && s.seconds() < 660 ? withLag(s, 50_000) : s);
        samples.replaceAll(s -> s.seconds() == 900 ? withLag(s, 5_000) : s);

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).isEmpty();
        assertThat(result.judged()).contains("aggregator group lag: 120 samples; largest 50,000 records; 2 rises "
                + "above 1,000, the closest to its allowance back within it after 60 s (allowed 60 s)");
    }

    @Test
    void aLagNeverAboveItsBoundSaysSo() {
        List<SoakSample> samples = new Series().add(0, 600, 10, 11, 21, t -> 100, 20).samples();

        assertThat(VERDICT.judge(samples).judged()).contains("prober group lag: 60 samples; largest 20 records; never "
                + "above 1,000");
    }

    @Test
    void aBacklogThatDrainsSlowerThanTheWarmUpFails() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 1_200, 10, 11, 21, t -> 100, 20).samples());
        // a role that keeps up with its input only just: its backlog from 300 s shrinks, but for 70 s
        samples.replaceAll(s -> s.seconds() >= 300 && s.seconds() < 370
                ? withLag(s, 8_000 - 100 * (long) (s.seconds() - 300)) : s);

        assertThat(VERDICT.judge(samples).failures()).containsExactly(
                "prober group lag stayed above 1,000 records for 70 s from 300 s (peak 8,000); allowed 60 s (the "
                        + "warm-up, at a load average up to 0.5)",
                "aggregator group lag stayed above 1,000 records for 70 s from 300 s (peak 8,000); allowed 60 s (the "
                        + "warm-up, at a load average up to 0.5)");
    }

    @Test
    void onAMachineLoadedPastFourThreadsPerCoreABacklogMayTakeLongerInProportion() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 1_200, 10, 11, 21, t -> 100, 20).samples());
        // an aggregator crashed at 300 s on 2 cores at a load average of 12: 1.5 times the warm-up, 90 s, to drain
        samples.replaceAll(s -> s.seconds() >= 300 && s.seconds() < 390 ? withLag(s, 7_000) : s);
        samples.replaceAll(s -> s.seconds() >= 280 && s.seconds() < 400 ? withLoad(s, 12) : s);

        GrowthVerdict.Result loaded = VERDICT.judge(samples);
        assertThat(loaded.failures()).isEmpty();
        assertThat(loaded.judged()).contains("aggregator group lag: 120 samples; largest 7,000 records; 1 rises "
                + "above 1,000, the closest to its allowance back within it after 90 s (allowed 90 s)");

        // 100 s is too long even then; and the same 90 s at a load of 8 (4 per core) is too long as well
        samples.replaceAll(s -> s.seconds() == 390 ? withLag(s, 7_000) : s);
        assertThat(VERDICT.judge(samples).failures()).contains("prober group lag stayed above 1,000 records for "
                + "100 s from 300 s (peak 7,000); allowed 90 s (the warm-up, at a load average up to 12.0)");
        samples.replaceAll(s -> s.seconds() == 390 ? withLag(s, 20) : s);
        samples.replaceAll(s -> s.seconds() >= 280 && s.seconds() < 400 ? withLoad(s, 8) : s);
        assertThat(VERDICT.judge(samples).failures()).contains("prober group lag stayed above 1,000 records for "
                + "90 s from 300 s (peak 7,000); allowed 60 s (the warm-up, at a load average up to 8.0)");
    }

    @Test
    void aLagThatGrowsToTheEndFails() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 1_200, 10, 11, 21, t -> 100, 20).samples());
        // a role that falls behind for good in the last 30 s: not back within the bound when the run ends
        samples.replaceAll(s -> s.seconds() >= 1_170 ? withLag(s, 20 * (long) s.seconds()) : s);

        GrowthVerdict.Result result = VERDICT.judge(samples);
        assertThat(result.failures()).contains(
                "prober group lag was 23,800 records at the end (1190 s), above the bound of 1,000 since 1170 s "
                        + "(peak 23,800)");
        assertThat(result.judged()).contains("prober group lag: 120 samples; largest 23,800 records; 1 rises above "
                + "1,000, none drained");
    }

    @Test
    void aFalseEventFailsAndSoDoesARunInWhichNothingFlipped() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 600, 10, 11, 21, t -> 100, 20).samples());
        SoakSample last = samples.get(samples.size() - 1);
        samples.set(samples.size() - 1, new SoakSample(last.seconds(), last.prober(), last.aggregator(), 0, 0,
                last.events(), 1, 0, 0, 0.5, ""));

        assertThat(VERDICT.judge(samples).failures()).containsExactly(
                "1 false state events: a steady target was reported other than HEALTHY after it had been decided "
                        + "HEALTHY (the run's log names them)",
                "no flapping target flipped: the run could not have detected a false event either");
    }

    @Test
    void aRunTooShortToJudgeFailsRatherThanPassing() {
        List<SoakSample> samples = new Series().add(0, 90, 10, 11, 21, t -> 100, 20).samples();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.passed()).isFalse();
        assertThat(result.failures()).contains("prober RSS: no lifetime had 5 samples after its warm-up of 60 s "
                + "(lengthen the run or sample more often)");
        assertThat(VERDICT.judge(List.of()).failures()).containsExactly("no samples: the run recorded nothing");
    }

    @Test
    void unreadableValuesAreLeftOutOfTheFit() {
        List<SoakSample> samples = new ArrayList<>(new Series().add(0, 1_200, 10, 11, 21, t -> 100, 20).samples());
        // a jcmd that timed out now and then: -1, never a drop to zero
        samples.replaceAll(s -> ((int) s.seconds()) % 70 == 0
                ? new SoakSample(s.seconds(), RoleFacts.unknown(11), s.aggregator(), -1, -1, s.events(), 0, 0, 3,
                0.5, "") : s);

        assertThat(VERDICT.judge(samples).failures()).isEmpty();
    }

    @Test
    void probesInFlightMoveTheOpenDescriptorsButOnlyHeldOnesAreJudgedForGrowth() {
        // the long tier's prober: about 180 descriptors held, and at some samples up to 960 probe sockets on top
        // (a burst after a pause), late in the lifetime more often than early: a line through the open count rises
        List<SoakSample> samples = new Series().add(0, 1_800, 10, 11, 21, GrowthVerdictTest::flat, 20).samples()
                .stream().map(s -> withProberFds(s, 180, 180 + (s.seconds() > 900 && s.seconds() % 40 == 0 ? 960
                        : 20))).toList();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).isEmpty();
        assertThat(result.judged()).anySatisfy(l -> assertThat(l)
                .isEqualTo("prober transient descriptors: 174 samples; largest 960 (allowed 1,128)"));
        assertThat(result.judged()).anySatisfy(l -> assertThat(l)
                .startsWith("prober held descriptors: 1 of 1 lifetimes judged; largest fitted rise +0.0"));
    }

    @Test
    void aDescriptorLeakShowsInTheHeldCountWhateverTheProbesInFlight() {
        // one socket a minute never closed, under the same bursts of probe sockets: 28 more held after warm-up
        List<SoakSample> samples = new Series().add(0, 1_800, 10, 11, 21, GrowthVerdictTest::flat, 20).samples()
                .stream().map(s -> {
                    int held = 180 + (int) (s.seconds() / 60);
                    return withProberFds(s, held, held + (s.seconds() % 40 == 0 ? 700 : 10));
                }).toList();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("prober held descriptors grew by 28.8 over 28.8 min of lifetime 1 (pid 11"));
    }

    @Test
    void moreTransientDescriptorsThanProbesCanBeInFlightFail() {
        List<SoakSample> samples = new Series().add(0, 600, 10, 11, 21, GrowthVerdictTest::flat, 20).samples()
                .stream().map(s -> s.seconds() == 300 ? withProberFds(s, 180, 180 + 1_200) : s).toList();
        List<SoakSample> aggregatorBurst = new Series().add(0, 600, 10, 11, 21, GrowthVerdictTest::flat, 20)
                .samples().stream().map(s -> s.seconds() == 300 ? new SoakSample(s.seconds(), s.prober(),
                        new RoleFacts(21, 30, 500, 45, 180, 180 + 200), s.proberLag(), s.aggregatorLag(), s.events(),
                        0, 0, 3, 0.5, "") : s).toList();

        assertThat(VERDICT.judge(samples).failures()).containsExactly("prober transient descriptors: 1,200 open at "
                + "300 s that were not open at the previous sample; allowed 1,128 (the probes it can have in flight "
                + "and 128 more)");
        assertThat(VERDICT.judge(aggregatorBurst).failures()).containsExactly("aggregator transient descriptors: 200 "
                + "open at 300 s that were not open at the previous sample; allowed 128 (128: it has no probes)");
    }

    @Test
    void theAggregatorsRssMayFillItsRocksDbBudgetWithinALifetimeButNeverPassTheCeiling() {
        // RSS from 450 MiB rising 180 MiB over the lifetime (the block cache and memtables filling), heap flat
        List<SoakSample> filling = new Series().add(0, 600, 10, 11, 21, GrowthVerdictTest::flat, 20).samples()
                .stream().map(s -> withRss(s, 440, 450 + 0.3 * s.seconds())).toList();
        List<SoakSample> proberFilling = filling.stream().map(s -> withRss(s, 450 + 0.3 * s.seconds(), 440)).toList();
        List<SoakSample> pastCeiling = filling.stream()
                .map(s -> s.seconds() == 590 ? withRss(s, 440, 790) : s).toList();

        GrowthVerdict.Result result = VERDICT.judge(filling);

        assertThat(result.failures()).isEmpty();
        assertThat(result.judged()).anySatisfy(l -> assertThat(l)
                .isEqualTo("aggregator RSS ceiling: largest 627.0 MiB (allowed 768 MiB: heap 256 + RocksDB 256 + "
                        + "256 MiB for the JVM)"));
        assertThat(VERDICT.judge(proberFilling).failures()).anySatisfy(f -> assertThat(f)
                .startsWith("prober RSS grew by 159.0 MiB over 8.8 min of lifetime 1 (pid 11, fitted line after "
                        + "warm-up); allowed 54.8 MiB (max(32, 10 % of 547.5))"));
        assertThat(VERDICT.judge(pastCeiling).failures()).containsExactly(
                "aggregator RSS ceiling: 790.0 MiB at 590 s, above 768 MiB (heap 256 + RocksDB 256 + 256 MiB for the "
                        + "JVM)");
    }

    @Test
    void transientDescriptorsAreJudgedAfterEachLifetimesWarmUp() {
        // a starting JVM opens its jars and clients between its first two samples
        List<SoakSample> samples = new Series().add(0, 600, 10, 11, 21, GrowthVerdictTest::flat, 20)
                .add(600, 1_200, 10, 12, 21, GrowthVerdictTest::flat, 20).samples().stream()
                .map(s -> s.seconds() == 610 ? withProberFds(s, 4, 4 + 1_500) : s).toList();

        GrowthVerdict.Result result = VERDICT.judge(samples);

        assertThat(result.failures()).isEmpty();
        assertThat(result.judged()).contains("prober transient descriptors: 108 samples; largest 0 (allowed 1,128)");
    }

    @Test
    void theSlopeIsTheLeastSquaresOne() {
        assertThat(GrowthVerdict.slope(List.of(new double[] {0, 1}, new double[] {1, 3}, new double[] {2, 5})))
                .isEqualTo(2.0);
        assertThat(GrowthVerdict.slope(List.of(new double[] {4, 1}, new double[] {4, 9}))).isZero();
    }

    private static SoakSample withProberFds(SoakSample s, int held, int open) {
        RoleFacts p = s.prober();
        return new SoakSample(s.seconds(), new RoleFacts(p.pid(), p.heapMib(), p.rssMib(), p.threads(), held, open),
                s.aggregator(), s.proberLag(), s.aggregatorLag(), s.events(), s.falseEvents(), s.staleEvents(),
                s.flappingFlips(), s.load1(), s.restart());
    }

    private static SoakSample withRss(SoakSample s, double prober, double aggregator) {
        RoleFacts p = s.prober();
        RoleFacts a = s.aggregator();
        return new SoakSample(s.seconds(), new RoleFacts(p.pid(), p.heapMib(), prober, p.threads(), p.heldFds(),
                p.openFds()), new RoleFacts(a.pid(), a.heapMib(), aggregator, a.threads(), a.heldFds(), a.openFds()),
                s.proberLag(), s.aggregatorLag(), s.events(), s.falseEvents(), s.staleEvents(), s.flappingFlips(),
                s.load1(), s.restart());
    }

    private static SoakSample withLoad(SoakSample s, double load) {
        return new SoakSample(s.seconds(), s.prober(), s.aggregator(), s.proberLag(), s.aggregatorLag(), s.events(),
                s.falseEvents(), s.staleEvents(), s.flappingFlips(), load, s.restart());
    }

    private static SoakSample withLag(SoakSample s, long lag) {
        return new SoakSample(s.seconds(), s.prober(), s.aggregator(), lag, lag, s.events(), s.falseEvents(),
                s.staleEvents(), s.flappingFlips(), s.load1(), s.restart());
    }
}
