package io.healthmesh.follow;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeBudgetTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void aFullBucketGrantsTheBurstThenTheRate() {
        ChangeBudget budget = new ChangeBudget(10, 5, now::get);
        assertThat(budget.take(8)).isEqualTo(5);
        assertThat(budget.take(1)).isZero();
        assertThat(budget.nanosUntilNext()).isEqualTo(100_000_000L);

        now.addAndGet(250_000_000L);
        assertThat(budget.take(8)).isEqualTo(2);
        now.addAndGet(10_000_000_000L);
        assertThat(budget.take(100)).isEqualTo(5);
    }

    @Test
    void badSettingsAreRefusedWithTheirRange() {
        assertThatThrownBy(() -> new ChangeBudget(0, 1, now::get)).hasMessage("perSecond: 0.0 (expected: above 0)");
        assertThatThrownBy(() -> new ChangeBudget(1, 0, now::get)).hasMessage("burst: 0 (expected: 1 or more)");
    }
}
