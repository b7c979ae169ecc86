package io.healthmesh.prober.schedule;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.schedule.WindowRun.Flip;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BEHAVIOUR.md section 5b's worked examples through the real scheduler on a manual clock and the aggregator's real
 * state machine ({@link WindowRun}): the windows {@link DetectionWindow} prints come out exactly, and from the
 * failure (or recovery) to the change no more than its "at most" bound, wherever in the probe cycle the failure falls;
 * the worst phase (just after a probe started) reaches the bound.
 */
class StateIntervalWindowsTest {

    private static final Duration RESPONSE = Duration.ofMillis(500);

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of(TargetSpec.of("tcp", "g", "10.0.0.1", 80, Protocol.TCP).withTiming(10_000, 1_000)
                        .withIntervals(2_000, 60_000)),
                Arguments.of(TargetSpec.of("udp-down-only", "g", "10.0.0.1", 53, Protocol.UDP)
                        .withTiming(5_000, 1_000).withThresholds(2, 4).withIntervals(null, 30_000)),
                Arguments.of(TargetSpec.of("http", "g", "10.0.0.1", 80, Protocol.HTTP).withTiming(5_000, 2_000)
                        .withIntervals(1_000, 20_000)),
                Arguments.of(TargetSpec.of("https-fast-only", "g", "10.0.0.1", 443, Protocol.HTTPS)
                        .withTiming(10_000, 3_000).withThresholds(2, 5).withIntervals(500, null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void theWindowsComeOutAsComputedWhereverTheFailureFalls(TargetSpec spec) {
        DetectionWindow w = DetectionWindow.of(spec, RESPONSE);
        long cycle = spec.longestIntervalMs() + spec.timeoutMs();
        long worstDown = 0;
        long worstUp = 0;
        // the failure and the recovery fall at 10 phases of the steady (and the down) cycle
        for (int phase = 0; phase < 10; phase++) {
            WindowRun run = new WindowRun(spec, RESPONSE);
            run.advance(cycle * 4);                                   // HEALTHY by now
            long steady = spec.intervalMs() + (spec.fixedDelay() ? RESPONSE.toMillis() : 0);
            run.advanceTo(run.lastStart() + 1 + phase * steady / 10);
            long failedAt = run.nowMs();
            run.backendUp(false);
            run.advance(cycle * 8);                                   // UNHEALTHY, then paced down
            long down = spec.downIntervalOrDefault() + (spec.fixedDelay() ? spec.timeoutMs() : 0);
            run.advanceTo(run.lastStart() + 1 + phase * down / 10);
            long recoveredAt = run.nowMs();
            run.backendUp(true);
            run.advance(cycle * 8);

            List<Flip> flips = run.flips();
            assertThat(flips).extracting(Flip::to)
                    .containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
            assertThat(flips.get(1).window()).as("to UNHEALTHY, phase %d", phase).isEqualTo(w.toUnhealthy().toMillis());
            assertThat(flips.get(2).window()).as("to HEALTHY, phase %d", phase).isEqualTo(w.toHealthy().toMillis());
            long fromFailure = flips.get(1).atMs() - failedAt;
            long fromRecovery = flips.get(2).atMs() - recoveredAt;
            assertThat(fromFailure).isLessThanOrEqualTo(w.fromFailureAtMost(spec, RESPONSE).toMillis());
            assertThat(fromRecovery).isLessThanOrEqualTo(w.fromRecoveryAtMost(spec, RESPONSE).toMillis());
            worstDown = Math.max(worstDown, fromFailure);
            worstUp = Math.max(worstUp, fromRecovery);
        }
        // the first phase falls 1 ms after a probe started: the bound less that millisecond
        assertThat(worstDown).isEqualTo(w.fromFailureAtMost(spec, RESPONSE).toMillis() - 1);
        assertThat(worstUp).isEqualTo(w.fromRecoveryAtMost(spec, RESPONSE).toMillis() - 1);
    }
}
