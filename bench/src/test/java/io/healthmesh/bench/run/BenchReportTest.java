package io.healthmesh.bench.run;

import io.healthmesh.core.target.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BenchReportTest {

    private static ThroughputPhase.Figure tcp(double achieved, double cores, double lagP99Micros, long failures) {
        return new ThroughputPhase.Figure(Protocol.TCP, 16_000, 1_000, 16_000, achieved, cores, failures, Map.of(),
                5_000, lagP99Micros, 90_000, 20, 0.6, new KernelTcpCounters(0, 0), "TCP 16000 targets: warm-up 12 s, settled");
    }

    private static ThroughputPhase.Figure capacity(double achieved, long failures) {
        return new ThroughputPhase.Figure(Protocol.TCP, 100_000, 10_000, 10_000, achieved, 0.6, failures, Map.of(),
                5_000, 14_000, 90_000, 20, Double.NaN, new KernelTcpCounters(0, 0), "");
    }

    @Test
    void saysByHowMuchAThroughputTargetIsMissedAndComparesWithThePeers() {
        BenchReport report = new BenchReport("cmd", "2026-11-30T14:00:00Z", "2 cores", "full");
        report.throughput(tcp(9_000, 1.0, 60_000, 0));
        report.peers(List.of(new PeerCpuPhase.Figure("haproxy", Protocol.TCP, 16_000, 16_000, 0.45, "ok"),
                new PeerCpuPhase.Figure("blackbox_exporter", Protocol.TCP, 9_000, 3_000, 0.9, "ok")));
        String md = report.markdown();

        assertThat(md).contains("| TCP | 16000 x 1000 ms | 16000 | 9000 | 1.00 | 9000 | 111.1 | 60% |");
        assertThat(md).contains("TCP probes/s per core: 9000 against >= 25000 (missed by 16000, 36% of the goal); "
                + "lag p99 60.0 ms against < 50 ms (missed by 10.00 ms)");
        // healthmesh 111.1 µs per probe, HAProxy 0.45 cores / 16000 = 28.1 µs per check
        assertThat(md).contains("TCP CPU per check vs HAProxy: 3.95x against <= 1.3x (missed by 2.65x)");
        // blackbox_exporter 0.9 cores / 3000 = 300 µs per probe: 2.7x ours
        assertThat(md).contains("TCP CPU per check vs blackbox_exporter: 2.7x below it against >= 10x");
        assertThat(md).contains("- TCP 16000 targets: warm-up 12 s, settled\n");
    }

    @Test
    void theDetectionTableSplitsEachErrorAndTheReportSaysWhatCameBeforeTheFlips() {
        long[] none = new long[0];
        DetectionPhase.Figure httpDown = new DetectionPhase.Figure(Protocol.HTTP, false, 3,
                new long[] {2_500, 2_600, 2_700}, new long[] {60, 80, 120}, new long[] {0, 5, 20},
                new long[] {60, 75, 100}, new long[] {2_400, 2_500, 2_600}, "responseTime x 3 + 1000 ms x 2", 0, 0);
        DetectionPhase.Figure tcpUp = new DetectionPhase.Figure(Protocol.TCP, true, 0, none, none, none, none, none,
                "1000 ms x 2", 0, 0);
        DetectionPhase.Result result = new DetectionPhase.Result(List.of(httpDown, tcpUp),
                new long[] {50_000, 70_000, 140_000}, none, none, none, 1_000, 3, "the aggregator kept up",
                "the JIT compilers went quiet", "first round: 3 state changes");
        BenchReport report = new BenchReport("cmd", "d", "m", "full");
        report.detection(result);
        String md = report.markdown();

        assertThat(md).contains("| HTTP | UNHEALTHY | 3 | 2600 / 2700 / 2700 | 80 / 120 / 120 | 5 / 20 | 75 / 100 | "
                + "responseTime x 3 + 1000 ms x 2 | 2500 / 2600 / 2600 | 1.04 | 0 / 0 |");
        assertThat(md).contains("| TCP | HEALTHY | 0 | - | - | - | - | 1000 ms x 2 | - |");
        assertThat(md).contains("came before (so that the paths a state change takes were compiled, as in a checker "
                + "that has run for a while): first round: 3 state changes.");
        assertThat(md).contains("Before the flips, the JIT compilers went quiet.")
                .contains("Before the flips, the aggregator kept up.");
        assertThat(md).contains("detection error p99 (worst case of the four): 120 ms against <= +100 ms (missed by 20 ms)");
        assertThat(result.summary()).isEqualTo("3 state changes, probe -> event p50 70.0 / p99 140.0 ms, detection "
                + "error p99 (worst case of the four) 120 ms");
    }

    @Test
    void aHaproxyWindowWithFailedChecksGivesNoRatio() {
        BenchReport report = new BenchReport("cmd", "d", "m", "short");
        report.throughput(tcp(16_000, 1.0, 10_000, 0));
        report.peers(List.of(new PeerCpuPhase.Figure("haproxy", Protocol.TCP, 16_000, 16_000, 0.30,
                "12 failed checks since its start; 4 servers went DOWN", PeerCpuPhase.disturbed(12))));
        String md = report.markdown();

        assertThat(md).contains("| 62.5 | void | 12 failed checks since its start; 4 servers went DOWN; **void**: 12 "
                + "checks failed in the window against a farm that was up");
        assertThat(md).contains("TCP CPU per check vs HAProxy: void (12 checks failed in the window")
                .doesNotContain("vs HAProxy: 3.33x");
        assertThat(PeerCpuPhase.disturbed(0)).isNull();
    }

    @Test
    void aTargetCountIsHeldOnlyWithLowLagFullRateAndFewFailures() {
        BenchReport held = new BenchReport("cmd", "d", "m", "full");
        held.capacity(new CapacityPhase.Figure(100_000, 20 << 20, 70 << 20, 9 << 20, 30 << 20,
                capacity(10_000, 100), true, "h1", "h2"));
        assertThat(held.markdown()).contains("(held: lag p99 < 50 ms").contains("prober heap per target: 524 bytes "
                + "against <= 512 (missed by 12");

        BenchReport failing = new BenchReport("cmd", "d", "m", "full");
        failing.capacity(new CapacityPhase.Figure(100_000, 20 << 20, 70 << 20, 9 << 20, 30 << 20,
                capacity(10_000, 40_000), true, "h1", "h2"));
        assertThat(failing.markdown()).contains("20.0% failed").contains("(not held:");
    }

    @Test
    void aggregatorInstancesGiveResultsPerThreadAndPublishingCostATableRowPerTuning() {
        BenchReport report = new BenchReport("cmd", "d", "m", "full");
        report.aggregatorInstances(List.of(
                new AggregatorThroughputPhase.Figure(300_000, 20, 30, 0, true, 1, 12, 150_000),
                new AggregatorThroughputPhase.Figure(300_000, 20, 20, 0, true, 2, 8, 150_000),
                new AggregatorThroughputPhase.Figure(300_000, Double.NaN, Double.NaN, 0, false, 3, Double.NaN, 0)), 100_000,
                1);
        report.publishCost(List.of(new PublishCostPhase.Figure(new io.healthmesh.prober.PublishTuning("lz4", 10, 16_384),
                10_000, 43.4, 42.6, 169.2, 938, 0.463, 132, 6.89, 7.07, 1.71, 0)), 10_000, "load average 1.00");
        String md = report.markdown();

        // 300000 results in 30 s = 10000/s on one thread; in 20 s on two threads = 15000/s, 7500 per thread
        assertThat(md).contains("| 1 | 1 | 300000 | 30.0 s | 10000 | 10000 |")
                .contains("| 2 | 2 | 300000 | 20.0 s | 15000 | 7500 |")
                .contains("| 3 | 3 | 300000 | did not catch up within 10 min | - | - |")
                .contains("| lz4 | 10 | 16384 | 10000 | 43.4 | 42.6 | 169.2 | 938 | 0.463 | 132.0 | 6.89 | 7.07 | 1.71 | 0 |")
                .contains("load average 1.00");

        BenchReport twoThreads = new BenchReport("cmd", "d", "m", "full");
        twoThreads.aggregatorInstances(List.of(new AggregatorThroughputPhase.Figure(300_000, 20, 20, 0, true, 2, 8,
                150_000)), 100_000, 2);
        // two instances of two threads each: 15000/s over four threads
        assertThat(twoThreads.markdown()).contains("(2 stream threads each,")
                .contains("| 2 | 4 | 300000 | 20.0 s | 15000 | 3750 |");
    }

    @Test
    void theAggregatorsRowGivesItsRatesAndItsCpuPerResultOverTheSecondHalf() {
        List<io.healthmesh.core.target.TargetSpec> specs = io.healthmesh.bench.run.FarmSpecs.over(
                List.of(new io.healthmesh.testkit.farm.FarmTarget("tcp-0", Protocol.TCP, "127.0.0.1", 1, null)), 10, "agg",
                10_000, 1_000, 3, 3);
        BenchReport report = new BenchReport("cmd", "d", "m", "full");
        // 1,000,000 results, 10 before the first commit, caught up 50 s later; the last 400,000 in 10 s and 12 s of CPU
        report.aggregator(new AggregatorThroughputPhase.Figure(1_000_000, 5, 50, 10, true, 1, 10, 400_000, 12), specs);
        assertThat(report.markdown()).contains("| 1000000 | 5.0 s | 50.0 s | 20000 | 40000 | 30.0 µs |");

        BenchReport stuck = new BenchReport("cmd", "d", "m", "full");
        stuck.aggregator(new AggregatorThroughputPhase.Figure(1_000_000, Double.NaN, Double.NaN, 0, false, 1,
                Double.NaN, 0), specs);
        assertThat(stuck.markdown()).contains("| 1000000 | - | did not catch up within 10 min | - | - | - |");
    }

    @Test
    void aWarmUpThatDidNotSettleGetsAVerdictLine() {
        BenchReport report = new BenchReport("cmd", "d", "m", "short");
        report.throughput(new ThroughputPhase.Figure(Protocol.TCP, 8_000, 1_000, 8_000, 8_000, 0.5, 0, Map.of(),
                5_000, 9_000, 12_000, 6, 0.6, new KernelTcpCounters(0, 0),
                "TCP 8000 targets: warm-up 30 s, stopped at its upper bound, not settled"));

        assertThat(report.markdown()).contains("- TCP warm-up did not settle before its upper bound");
    }
}
