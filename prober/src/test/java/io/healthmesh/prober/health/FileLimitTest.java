package io.healthmesh.prober.health;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class FileLimitTest {

    @Test
    void aLimitAboveTheBoundAndTheReserveSaysNothing() {
        assertThat(FileLimit.check(1_000, 1_048_576)).isEmpty();
        assertThat(FileLimit.check(1_000, 1_000 + FileLimit.RESERVED)).isEmpty();
    }

    @Test
    void anUnknownLimitSaysNothing() {
        assertThat(FileLimit.check(100_000, -1)).isEmpty();
    }

    @Test
    void aLimitBelowSaysWhereProbesStopAndWhatToRaise() {
        // the common soft limit of a shell, had the JVM not raised it, against the default bound
        assertThat(FileLimit.check(1_000, 1_024)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("max.in.flight is 1000")
                .contains("at most 1024 files")
                .contains("about 768 in flight")
                .contains("at least 1256")
                .contains("INCONCLUSIVE"));
        assertThat(FileLimit.check(1_000, 1_000 + FileLimit.RESERVED - 1)).isPresent();
    }

    @Test
    void aLimitBelowTheReserveItselfIsReportedWithoutANegativeCount() {
        assertThat(FileLimit.check(10, 100)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("about 0 in flight"));
    }

    @Test
    void thisProcessHasALimitOnLinux() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the limit is read from a Unix JVM's MXBean");
        assertThat(FileLimit.ofThisProcess()).isPositive();
    }
}
