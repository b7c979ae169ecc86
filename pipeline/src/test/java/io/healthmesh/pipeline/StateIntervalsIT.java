package io.healthmesh.pipeline;

import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * State-dependent intervals end to end (BEHAVIOUR.md section 5b): a real prober and aggregator on the embedded broker
 * and two HTTP targets on one loopback backend, the same in all but {@code fastIntervalMs} and {@code downIntervalMs}.
 * The backend hangs, then answers again. Each target must change within the bound {@code healthmesh window} computes
 * for it (from the moment of the change, plus a second for publishing, aggregating and committing), and the one with
 * the state intervals must probe a down target at its down interval. The bound of the adaptive target is shorter than
 * the window of the fixed one alone, so the test shows that the fast interval decides sooner without timing a race.
 */
@ExtendWith(KafkaExtension.class)
class StateIntervalsIT {

    private static final Logger LOG = LoggerFactory.getLogger(StateIntervalsIT.class);
    private static final long SLACK_MS = 1_000;
    private static final Duration RESPONSE = Duration.ofMillis(100);
    /**
     * Timing kept short (the test waits on the real clock) but with room for what it proves: the adaptive target's
     * worst case plus the slack still falls before the fixed target's best case (4.1 + 1 s against 5.5 s, asserted
     * below), and the down interval paces probes visibly slower than the interval would (3.5 s against 2.5 s).
     */
    private static final int INTERVAL_MS = 2_000;
    private static final int TIMEOUT_MS = 500;
    private static final int DOWN_INTERVAL_MS = 3_000;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(120)
    void theFastIntervalDecidesWithinItsWindowAndTheDownIntervalPacesTheDownTarget(TestKafka kafka) {
        try (LoopbackHttpBackend backend = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            backend.answerAfter(RESPONSE.toMillis());
            pipeline.startProber("a", List.of());
            TargetSpec fixed = TargetSpec.of("fixed", "web", backend.host(), backend.port(), Protocol.HTTP)
                    .withTiming(INTERVAL_MS, TIMEOUT_MS).withThresholds(2, 3);
            TargetSpec adaptive = TargetSpec.of("adaptive", "web", backend.host(), backend.port(), Protocol.HTTP)
                    .withTiming(INTERVAL_MS, TIMEOUT_MS).withThresholds(2, 3).withIntervals(250, DOWN_INTERVAL_MS);
            DetectionWindow fixedWindow = DetectionWindow.of(fixed, RESPONSE);
            DetectionWindow adaptiveWindow = DetectionWindow.of(adaptive, RESPONSE);
            long adaptiveDownBound = adaptiveWindow.fromFailureAtMost(adaptive, RESPONSE).toMillis();
            // the adaptive target's worst case, with the slack, is shorter than the fixed one's best case
            assertThat(adaptiveDownBound + SLACK_MS).isLessThan(fixedWindow.toUnhealthy().toMillis());
            pipeline.defineAll(List.of(fixed, adaptive));
            awaitStatus(pipeline, "fixed", HealthStatus.HEALTHY, 0L, PATIENCE.plus(Pipeline.STARTUP));
            awaitStatus(pipeline, "adaptive", HealthStatus.HEALTHY, 0L, PATIENCE);

            long hungAt = backend.hang();
            Received<TargetHealth> adaptiveDown = awaitStatus(pipeline, "adaptive", HealthStatus.UNHEALTHY, hungAt,
                    PATIENCE);
            Received<TargetHealth> fixedDown = awaitStatus(pipeline, "fixed", HealthStatus.UNHEALTHY, hungAt, PATIENCE);
            long adaptiveMs = adaptiveDown.receivedAtMs() - hungAt;
            long fixedMs = fixedDown.receivedAtMs() - hungAt;
            LOG.info("measured: UNHEALTHY {} ms after the hang with fastIntervalMs (bound {} ms), {} ms without "
                    + "(bound {} ms)", adaptiveMs, adaptiveDownBound, fixedMs,
                    fixedWindow.fromFailureAtMost(fixed, RESPONSE).toMillis());
            assertThat(adaptiveMs).isLessThanOrEqualTo(adaptiveDownBound + SLACK_MS);
            assertThat(fixedMs).isGreaterThanOrEqualTo(fixedWindow.toUnhealthy().toMillis() - 50);
            assertThat(fixedMs).isLessThanOrEqualTo(fixedWindow.fromFailureAtMost(fixed, RESPONSE).toMillis()
                    + SLACK_MS);

            // down: the adaptive target is probed every timeout + downInterval (3.5 s), not timeout + interval (2.5 s)
            long downSince = System.currentTimeMillis();
            List<ProbeResult> paced = Await.value(PATIENCE, () -> {
                List<ProbeResult> after = results(pipeline, "adaptive", downSince);
                return after.size() >= 3 ? java.util.Optional.of(after) : java.util.Optional.empty();
            }, () -> "adaptive: fewer than 3 results while down");
            for (int i = 1; i < paced.size(); i++) {
                long gap = paced.get(i).getStartedAtMs() - paced.get(i - 1).getStartedAtMs();
                assertThat(gap).as("start to start while down")
                        .isGreaterThanOrEqualTo(DOWN_INTERVAL_MS + TIMEOUT_MS - 50);
            }

            long resumedAt = backend.resume();
            Received<TargetHealth> adaptiveUp = awaitStatus(pipeline, "adaptive", HealthStatus.HEALTHY, resumedAt,
                    PATIENCE);
            long upMs = adaptiveUp.receivedAtMs() - resumedAt;
            LOG.info("measured: HEALTHY {} ms after the recovery with downIntervalMs {} (bound {} ms)", upMs,
                    DOWN_INTERVAL_MS,
                    adaptiveWindow.fromRecoveryAtMost(adaptive, RESPONSE).toMillis());
            assertThat(upMs).isLessThanOrEqualTo(adaptiveWindow.fromRecoveryAtMost(adaptive, RESPONSE).toMillis()
                    + SLACK_MS);
            assertThat(adaptiveUp.value().getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        }
    }

    private static List<ProbeResult> results(Pipeline pipeline, String id, long startedNotBeforeMs) {
        return pipeline.results().of(id).stream().map(Received::value)
                .filter(r -> r != null && r.getStartedAtMs() >= startedNotBeforeMs
                        && r.getOutcome() != ProbeOutcome.SUCCESS)
                .toList();
    }

    private static Received<TargetHealth> awaitStatus(Pipeline pipeline, String id, HealthStatus status,
                                                      long notBeforeMs, Duration patience) {
        return Await.value(patience, () -> pipeline.health().of(id).stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null
                                && r.value().getStatus() == status)
                        .findFirst(),
                () -> id + " never " + status + "; events: " + pipeline.health().of(id));
    }
}
