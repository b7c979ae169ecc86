package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WarmupGateTest {

    private static final long SECOND = 1_000_000_000L;

    /** Feeds one-second samples at 10,000 results/s with the given CPU and JIT milliseconds per second. */
    private static int secondsUntilSettled(WarmupGate gate, double[] cpuCoresPerSecond, long[] jitMillisPerSecond) {
        long results = 0;
        long cpu = 0;
        long jit = 0;
        if (gate.offer(new WarmupGate.Sample(0, 0, 0, 0))) {
            return 0;
        }
        for (int s = 0; s < cpuCoresPerSecond.length; s++) {
            results += 10_000;
            cpu += (long) (cpuCoresPerSecond[s] * SECOND);
            jit += jitMillisPerSecond[s];
            if (gate.offer(new WarmupGate.Sample((s + 1) * SECOND, results, cpu, jit))) {
                return s + 1;
            }
        }
        return -1;
    }

    @Test
    void settlesOnceTheRateStopsRisingAndTheJitIsQuiet() {
        // CPU per second falls as the JIT compiles, then stays at 0.5 cores; the JIT stops after second 6
        double[] cpu = {1.0, 0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
        long[] jit = {400, 300, 200, 100, 50, 30, 2, 0, 0, 0, 0, 0, 0, 0};
        WarmupGate gate = new WarmupGate(3, 2, 0.03, 10);

        int settledAt = secondsUntilSettled(gate, cpu, jit);

        // rates over 2 s: from second 8 on every rate spans only 0.5-core seconds; three of them end at second 10,
        // and over seconds 6 to 10 the JIT compiled 2 ms (0.5 ms/s)
        assertThat(settledAt).isEqualTo(10);
        assertThat(gate.describe("TCP")).startsWith("TCP: warm-up 10 s, settled: last probes per CPU-second "
                + "20000, 20000, 20000 (spread 0.0%, limit 3%), JIT 0.5 ms/s over them (limit 10)");
    }

    @Test
    void aSteadyRateDoesNotSettleWhileTheJitStillCompiles() {
        double[] cpu = new double[20];
        java.util.Arrays.fill(cpu, 0.5);
        long[] jit = new long[20];
        java.util.Arrays.fill(jit, 40);   // 4 % of a core, every second
        WarmupGate gate = new WarmupGate(3, 2, 0.03, 10);

        assertThat(secondsUntilSettled(gate, cpu, jit)).isEqualTo(-1);
        assertThat(gate.describe("HTTP")).contains("stopped at its upper bound, not settled")
                .contains("JIT 40.0 ms/s over them");
    }

    @Test
    void aRateStillRisingBeyondTheToleranceDoesNotSettle() {
        // 2 % less CPU every second: rates over 2 s rise about 4 % a step
        double[] cpu = new double[12];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = 1.0 * Math.pow(0.98, i);
        }
        assertThat(secondsUntilSettled(new WarmupGate(3, 2, 0.03, 10), cpu, new long[12])).isEqualTo(-1);
    }

    @Test
    void notRisingSettlesOnAFallingRateThatStableWouldWaitOut() {
        // a busy machine: the JIT is quiet, but the prober's CPU per probe drifts up 2 % a second (rates fall)
        double[] cpu = new double[12];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = 0.5 * Math.pow(1.02, i);
        }
        assertThat(secondsUntilSettled(new WarmupGate(3, 2, 0.03, 10), cpu, new long[12])).isEqualTo(-1);
        WarmupGate notRising = new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.NOT_RISING, "JIT CPU");

        assertThat(secondsUntilSettled(notRising, cpu, new long[12])).isEqualTo(4);
        assertThat(notRising.describe("HTTP")).startsWith("HTTP: warm-up 4 s, settled:")
                .contains("rise over the first 0.0%").contains("JIT CPU 0.0 ms/s over them");
    }

    @Test
    void notRisingWaitsWhileTheRateStillRises() {
        // the JIT makes every probe 2 % cheaper each second, then stops at second 8: rates rise until then
        double[] cpu = new double[16];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = Math.max(0.5, 0.6 * Math.pow(0.98, i));
        }
        WarmupGate gate = new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.NOT_RISING, "JIT CPU");

        int settledAt = secondsUntilSettled(gate, cpu, new long[16]);

        // the CPU per second reaches its floor in second 10 (0.6 x 0.98^9 = 0.50); the last rates stop rising
        // by more than 3 % over the oldest one two seconds later
        assertThat(settledAt).isBetween(8, 12);
        assertThat(gate.describe("TCP")).contains("settled").contains("rise over the first");
    }

    @Test
    void notRisingStillWaitsForTheJit() {
        double[] cpu = new double[20];
        java.util.Arrays.fill(cpu, 0.5);
        long[] jit = new long[20];
        java.util.Arrays.fill(jit, 40);
        WarmupGate gate = new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.NOT_RISING, "JIT CPU");

        assertThat(secondsUntilSettled(gate, cpu, jit)).isEqualTo(-1);
        assertThat(gate.describe("TCP")).contains("not settled").contains("JIT CPU 40.0 ms/s over them")
                .contains("JIT CPU 800 ms during it");
    }

    @Test
    void aGateThatCoversTheRampUpWaitsForTheFullRate() {
        // results ramp up 2,000, 4,000, ... 10,000 a second, at the same CPU per result throughout
        WarmupGate gate = new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.NOT_RISING, "JIT CPU", 9_000);
        long results = 0;
        long cpu = 0;
        int settledAt = -1;
        gate.offer(new WarmupGate.Sample(0, 0, 0, 0));
        for (int s = 1; s <= 12 && settledAt < 0; s++) {
            long perSecond = Math.min(10_000, 2_000L * s);
            results += perSecond;
            cpu += perSecond * 50_000;   // 50 µs per result
            if (gate.offer(new WarmupGate.Sample(s * SECOND, results, cpu, 0))) {
                settledAt = s;
            }
        }

        // the rate per CPU-second is flat from the start; only the results per second hold it back: each of the
        // last three 2 s spans must average 9,000/s; the first that does is seconds 4-5 (8,000 and 10,000), the
        // third such span ends at second 7
        assertThat(settledAt).isEqualTo(7);
        assertThat(new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.NOT_RISING, "JIT CPU", 0)
                .offer(new WarmupGate.Sample(0, 0, 0, 0))).isFalse();
        assertThatThrownBy(() -> new WarmupGate(3, 2, 0.03, 10, WarmupGate.Rule.STABLE, "JIT", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minResultsPerSecond: -1.0");
    }

    @Test
    void rejectsParametersThatCannotDecide() {
        assertThatThrownBy(() -> new WarmupGate(1, 2, 0.03, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stableRates 1 (expected: >= 2)");
    }
}
