package io.healthmesh.cli.replay;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.core.health.PanicThreshold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code replay --panic}: a percentage or a count, checked with the rule the aggregator applies to policies. */
class ReplayPanicOptionTest {

    @Test
    void aPercentageOrACountWithTheDefaultMargins() {
        assertThat(ReplayCommand.panicThreshold("30%")).isEqualTo(PanicThreshold.of(30, null));
        assertThat(ReplayCommand.panicThreshold("2")).isEqualTo(PanicThreshold.of(null, 2));
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> ReplayCommand.panicThreshold("0%")).isInstanceOf(BadInputException.class)
                .hasMessage("--panic: 0% (minHealthyPercent: 0 (expected: 1..100))");
        assertThatThrownBy(() -> ReplayCommand.panicThreshold("half")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("expected: a percentage such as 30% or a count such as 2");
    }
}
