package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JitActivityTest {

    @Test
    void readsTheCpuTicksOfCompilerThreadsOnly() {
        // /proc/<pid>/task/<tid>/stat: utime (field 14) and stime (field 15) in clock ticks
        String c2 = "4242 (C2 CompilerThre) S 4200 4200 1 0 -1 4194624 12 0 0 0 731 19 0 0 20 0 25 0 100 0 0";
        String c1 = "4243 (C1 CompilerThre) S 4200 4200 1 0 -1 4194624 12 0 0 0 120 5 0 0 20 0 25 0 100 0 0";
        String worker = "4250 (prober-probe-1) R 4200 4200 1 0 -1 4194624 12 0 0 0 5000 900 0 0 20 0 25 0 100 0 0";

        assertThat(JitActivity.compilerTicks(c2)).isEqualTo(750);
        assertThat(JitActivity.compilerTicks(c1)).isEqualTo(125);
        assertThat(JitActivity.compilerTicks(worker)).isEqualTo(-1);
        assertThat(JitActivity.compilerTicks("garbage")).isEqualTo(-1);
    }

    @Test
    void readsThisJvmsCompilerThreads() throws InterruptedException {
        JitActivity.CompilerThreads threads = new JitActivity.CompilerThreads(ProcessHandle.current().pid());
        long before = threads.cpuMillis();
        // give the JIT something to compile
        long sum = 0;
        for (int i = 0; i < 20_000_000; i++) {
            sum += Integer.toString(i).hashCode();
        }
        long after = threads.cpuMillis();

        assertThat(sum).isNotZero();
        assertThat(before).isGreaterThanOrEqualTo(0);
        assertThat(after).isGreaterThanOrEqualTo(before);
    }
}
