package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LongSamplesTest {

    @Test
    void percentilesUseTheNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(LongSamples.percentile(sorted, 50)).isEqualTo(5);
        assertThat(LongSamples.percentile(sorted, 99)).isEqualTo(10);
        assertThat(LongSamples.percentile(sorted, 100)).isEqualTo(10);
        assertThat(LongSamples.percentile(sorted, 1)).isEqualTo(1);
        assertThat(LongSamples.percentile(new long[0], 50)).isNaN();
    }

    @Test
    void keepsAtMostItsCapacityAndCountsTheRest() {
        LongSamples samples = new LongSamples(3);
        for (long v = 5; v > 0; v--) {
            samples.add(v);
        }
        assertThat(samples.sorted()).containsExactly(3, 4, 5);
        assertThat(samples.overflow()).isEqualTo(2);
        samples.clear();
        assertThat(samples.size()).isZero();
        assertThat(samples.overflow()).isZero();
    }
}
