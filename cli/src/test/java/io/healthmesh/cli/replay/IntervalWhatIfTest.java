package io.healthmesh.cli.replay;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.replay.Alternatives;
import io.healthmesh.replay.IntervalEstimate;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code replay --fast-interval / --down-interval / --profile}: the alternatives checked as {@code targets apply} would. */
class IntervalWhatIfTest {

    private static final TargetSpec TCP = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP); // 5 s, timeout 2 s

    @Test
    void withoutTheOptionsThereIsNothingToDo() {
        assertThat(IntervalWhatIf.of(null, null, null)).isNull();
    }

    @Test
    void aProfileWithOneIntervalForEveryStateRefusesAFastInterval() {
        IntervalWhatIf w = IntervalWhatIf.of(Duration.ofSeconds(2), null, "tencent_clb");

        assertThatThrownBy(() -> w.check(Map.of("t", TCP), Alternatives.NONE))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("--fast-interval 2000ms --profile TENCENT_CLB")
                .satisfies(e -> assertThat(((BadInputException) e).problems())
                        .anySatisfy(p -> assertThat(p).startsWith("t under TENCENT_CLB: fastIntervalMs")
                                .contains("has one interval for every state")));
    }

    @Test
    void aFixedRateProbeRefusesAFastIntervalBelowItsTimeout() {
        IntervalWhatIf w = IntervalWhatIf.of(Duration.ofSeconds(1), null, null);

        assertThatThrownBy(() -> w.check(Map.of("t", TCP), Alternatives.NONE))
                .isInstanceOf(BadInputException.class)
                .satisfies(e -> assertThat(((BadInputException) e).problems())
                        .anySatisfy(p -> assertThat(p).contains("at least timeoutMs = 2000")));
    }

    @Test
    void anAllowedAlternativeKeepsTheRestOfTheDefinition() {
        IntervalWhatIf w = IntervalWhatIf.of(Duration.ofSeconds(2), Duration.ofSeconds(20), "GENERIC");
        w.check(Map.of("t", TCP), new Alternatives(2, null, null, null));

        TargetSpec alt = w.alternative(TCP, new Alternatives(2, null, null, null));
        assertThat(alt.fastIntervalMs()).isEqualTo(2_000);
        assertThat(alt.downIntervalMs()).isEqualTo(20_000);
        assertThat(alt.healthyThreshold()).isEqualTo(2);
        assertThat(alt.unhealthyThreshold()).isEqualTo(TCP.unhealthyThreshold());
        assertThat(alt.profile()).isEqualTo(TargetProfile.GENERIC);
        assertThat(w.estimates()).isTrue();
    }

    @Test
    void theTextSaysItIsAnEstimateAndGivesBothRuns() {
        IntervalWhatIf w = IntervalWhatIf.of(Duration.ofSeconds(2), null, null);
        IntervalEstimate.Figures recorded = new IntervalEstimate.Figures(720, 720, List.of(10_000L), List.of());
        IntervalEstimate.Figures estimated = new IntervalEstimate.Figures(800, 800, List.of(4_000L), List.of());
        java.io.StringWriter text = new java.io.StringWriter();

        w.print(new java.io.PrintWriter(text, true), List.of(new IntervalEstimate.TargetEstimate("t",
                new IntervalEstimate.Intervals(5_000, 2_000, 5_000), recorded, estimated)));

        assertThat(text.toString()).contains("ESTIMATE with --fast-interval 2000ms", "not a measurement")
                .containsPattern("(?m)^t\\s+5\\.0s/2\\.0s/5\\.0s\\s+720\\s+800\\s+10\\.0s -> 4\\.0s\\s+- -> -$");
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> IntervalWhatIf.of(null, null, "aws")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("--profile: aws (expected: one of GENERIC");
        assertThatThrownBy(() -> IntervalWhatIf.of(Duration.ofMillis(50), null, null))
                .isInstanceOf(BadInputException.class).hasMessage("--fast-interval: 50 ms (expected: 100..600000 ms)");
    }
}
