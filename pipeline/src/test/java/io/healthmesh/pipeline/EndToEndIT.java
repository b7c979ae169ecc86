package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4's end-to-end test: a real prober and a real aggregator on the embedded broker, probing two loopback HTTP
 * backends of one group. The backends stop answering (they hang: connections are accepted, requests are never
 * answered, so every probe ends in TIMEOUT), then answer again.
 *
 * <p>What is asserted about timing, with {@code stop} = the instant a backend stopped answering (the later of
 * {@link LoopbackHttpBackend#hang()} and its last answer), {@code W} = {@link DetectionWindow#toUnhealthy()} of the
 * target (L7: {@code timeout x threshold + interval x (threshold - 1)} = 0.5 x 2 + 1 x 1 = 2 s) and {@code I} = the
 * interval:
 * <ul>
 *   <li>the first failing probe starts at most {@code I} after {@code stop} (fixed delay: the next probe starts an
 *       interval after the last succeeding one ended, and that one ended by {@code stop}); it is logged as the
 *       scheduling phase;</li>
 *   <li>the aggregator dates UNHEALTHY (the event's {@code sinceMs}) no earlier than {@code W} after the first failing
 *       probe started (the formula is a lower bound: each probe waits its whole timeout) and no later than
 *       {@code W + 1 s} after it;</li>
 *   <li>a {@code read_committed} consumer of health-state receives the UNHEALTHY event within {@code I + W + 1 s}
 *       of {@code stop}: the SPEC window, plus the phase, plus one second for publishing, aggregating and the
 *       exactly-once commit;</li>
 *   <li>after both members are UNHEALTHY, group-state carries a {@code failOpen = true} event routing both;</li>
 *   <li>once the backends answer again, HEALTHY is received within {@code I + toHealthy + 1 s} of the resume (the
 *       first succeeding probe starts at most an interval after it), and the group leaves fail-open.</li>
 * </ul>
 */
@ExtendWith(KafkaExtension.class)
class EndToEndIT {

    private static final Logger LOG = LoggerFactory.getLogger(EndToEndIT.class);
    private static final int INTERVAL_MS = 1_000;
    private static final int TIMEOUT_MS = 500;
    private static final int THRESHOLD = 2;
    /** Time allowed on top of the SPEC window for publishing, aggregating and committing. */
    private static final long PIPELINE_SLACK_MS = 1_000;
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(90)
    void aHangingBackendTurnsUnhealthyWithinTheWindowItsGroupFailsOpenAndBothRecover(TestKafka kafka) {
        try (LoopbackHttpBackend backend1 = LoopbackHttpBackend.start("127.0.0.1");
             LoopbackHttpBackend backend2 = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            pipeline.startProber("a", List.of());
            TargetSpec web1 = http("web-1", backend1);
            TargetSpec web2 = http("web-2", backend2);
            pipeline.define(web1);
            pipeline.define(web2);

            for (String id : List.of("web-1", "web-2")) {
                awaitStatus(pipeline, id, HealthStatus.HEALTHY, 0L, Pipeline.STARTUP);
            }
            awaitGroup(pipeline, g -> !g.getFailOpen() && g.getHealthy() == 2, 0L, "both members HEALTHY");

            long hungAt1 = backend1.hang();
            long hungAt2 = backend2.hang();
            Received<TargetHealth> down1 = awaitStatus(pipeline, "web-1", HealthStatus.UNHEALTHY, hungAt1, PATIENCE);
            Received<TargetHealth> down2 = awaitStatus(pipeline, "web-2", HealthStatus.UNHEALTHY, hungAt2, PATIENCE);
            DetectionWindow window = DetectionWindow.of(web1, Duration.ZERO);
            assertDetectedInTime(pipeline, "web-1", Math.max(hungAt1, backend1.lastAnsweredAtMs()), down1, window);
            assertDetectedInTime(pipeline, "web-2", Math.max(hungAt2, backend2.lastAnsweredAtMs()), down2, window);
            assertThat(backend1.held()).as("requests held by the hanging backend").isGreaterThanOrEqualTo(THRESHOLD);

            Received<GroupHealth> failOpen = awaitGroup(pipeline, GroupHealth::getFailOpen,
                    Math.min(hungAt1, hungAt2), "failOpen = true after the stop");
            assertThat(failOpen.value().getMembers()).isEqualTo(2);
            assertThat(failOpen.value().getUnhealthy()).as("members UNHEALTHY when the group fails open").isEqualTo(2);
            assertThat(failOpen.value().getHealthy()).isZero();
            assertThat(failOpen.value().getRoutable()).as("fail-open routes every member").containsExactly("web-1", "web-2");

            long resumedAt = Math.min(backend1.resume(), backend2.resume());
            long upBound = INTERVAL_MS + window.toHealthy().toMillis() + PIPELINE_SLACK_MS;
            for (String id : List.of("web-1", "web-2")) {
                Received<TargetHealth> up = awaitStatus(pipeline, id, HealthStatus.HEALTHY, resumedAt, PATIENCE);
                assertThat(up.value().getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
                assertThat(up.value().getReason()).isEqualTo(ProbeOutcome.SUCCESS);
                LOG.info("measured {}: HEALTHY received {} ms after the backend answered again (bound {} ms = interval"
                        + " + {})", id, up.receivedAtMs() - resumedAt, upBound, window.healthyFormula());
                assertThat(up.receivedAtMs() - resumedAt).as(id + ": ms from resume to HEALTHY received")
                        .isLessThanOrEqualTo(upBound);
            }
            Received<GroupHealth> routed = awaitGroup(pipeline, g -> !g.getFailOpen() && g.getHealthy() == 2,
                    resumedAt, "fail-open left with both members HEALTHY");
            assertThat(routed.value().getRoutable()).containsExactly("web-1", "web-2");
        }
    }

    private static TargetSpec http(String id, LoopbackHttpBackend backend) {
        return TargetSpec.of(id, "web", backend.host(), backend.port(), Protocol.HTTP)
                .withTiming(INTERVAL_MS, TIMEOUT_MS)
                .withThresholds(THRESHOLD, THRESHOLD);
    }

    /**
     * Checks the timing of an UNHEALTHY event against the window (see the class comment) and logs what was measured.
     *
     * @param stoppedAt the instant the backend stopped answering
     */
    private static void assertDetectedInTime(Pipeline pipeline, String id, long stoppedAt, Received<TargetHealth> down,
                                             DetectionWindow window) {
        long w = window.toUnhealthy().toMillis();
        ProbeResult firstFailing = pipeline.results().of(id).stream()
                .map(Received::value)
                .filter(r -> r.getOutcome() != ProbeOutcome.SUCCESS && r.getStartedAtMs() >= stoppedAt - TIMEOUT_MS)
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + ": no failing probe result after the stop"));
        TargetHealth event = down.value();
        long phase = firstFailing.getStartedAtMs() - stoppedAt;
        long decided = event.getSinceMs() - firstFailing.getStartedAtMs();
        long observed = down.receivedAtMs() - stoppedAt;
        long bound = INTERVAL_MS + w + PIPELINE_SLACK_MS;
        LOG.info("measured {}: first failing probe {} ms after the stop, UNHEALTHY decided {} ms after it (window {}),"
                        + " received {} ms after the stop (bound {} ms)", id, phase, decided, window.unhealthyFormula(),
                observed, bound);

        assertThat(event.getReason()).as(id + ": reason").isEqualTo(ProbeOutcome.TIMEOUT);
        assertThat(event.getPreviousStatus()).as(id + ": previous status").isEqualTo(HealthStatus.HEALTHY);
        assertThat(event.getConsecutiveFailures()).as(id + ": failures in a row").isEqualTo(THRESHOLD);
        assertThat(firstFailing.getOutcome()).as(id + ": first failing outcome").isEqualTo(ProbeOutcome.TIMEOUT);
        assertThat(phase).as(id + ": ms from the stop to the first failing probe's start (fixed delay: <= interval)")
                .isLessThanOrEqualTo(INTERVAL_MS + PIPELINE_SLACK_MS);
        assertThat(decided).as(id + ": ms from the first failing probe's start to UNHEALTHY")
                .isBetween(w - 2, w + PIPELINE_SLACK_MS);
        assertThat(observed).as(id + ": ms from the stop to the UNHEALTHY event received (interval + window + 1 s)")
                .isLessThanOrEqualTo(bound);
    }

    /**
     * The first event of {@code id} with {@code status} received at or after {@code notBeforeMs}. The first events of
     * a new aggregator may wait for its first exactly-once transactions, hence a longer patience then.
     */
    private static Received<TargetHealth> awaitStatus(Pipeline pipeline, String id, HealthStatus status,
                                                      long notBeforeMs, Duration patience) {
        return Await.value(patience, () -> pipeline.health().of(id).stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null
                                && r.value().getStatus() == status)
                        .findFirst(),
                () -> id + " never " + status + "; events: " + summary(pipeline.health().of(id)));
    }

    /**
     * The first event of group {@code web} that matches, received at or after {@code notBeforeMs}. A group whose
     * members are all DETECTING fails open too, so the fail-open event of interest is the one after the stop.
     */
    private static Received<GroupHealth> awaitGroup(Pipeline pipeline, Predicate<GroupHealth> matching,
                                                    long notBeforeMs, String what) {
        return Await.value(PATIENCE, () -> pipeline.groups().of("web").stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null && matching.test(r.value()))
                        .findFirst(),
                () -> "group web never " + what + "; events: " + summary(pipeline.groups().of("web")));
    }

    private static <V> String summary(List<Received<V>> events) {
        return events.stream().map(r -> String.valueOf(r.value())).toList().toString();
    }
}
