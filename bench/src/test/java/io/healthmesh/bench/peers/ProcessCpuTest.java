package io.healthmesh.bench.peers;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCpuTest {

    @Test
    void addsUserAndSystemTicksEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
        String stat = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 12345 "
                + "1000000 500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        assertThat(ProcessCpu.parseCpuNanos(stat)).isEqualTo(325L * 10_000_000L);
    }

    @Test
    void readsThisProcessWhoseCpuTimeOnlyGrows() {
        long pid = ProcessHandle.current().pid();
        long first = ProcessCpu.cpuNanos(pid);
        long sum = 0;
        for (int i = 0; i < 5_000_000; i++) {
            sum += Long.numberOfTrailingZeros(i ^ sum);
        }
        assertThat(sum).isPositive();
        assertThat(ProcessCpu.cpuNanos(pid)).isGreaterThanOrEqualTo(first).isPositive();
    }
}
