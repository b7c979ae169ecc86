package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.WorkedExample;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Tag;
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
 * Each document's worked HTTP example end to end (docs/PROFILES.md): a real prober and aggregator on the embedded
 * broker, a loopback backend that answers in 1 s (the documents' response time), then hangs (every probe waits its
 * whole timeout), then answers in 1 s again. Each window is measured from the start of the first probe that saw the
 * change (its {@code startedAtMs}) to the receipt of the state event by a {@code read_committed} consumer, and must be
 * the document's figure, at most 1 s more (publishing, aggregating, the exactly-once commit).
 *
 * <p>The backend changes right after a probe result was published, so no probe is in flight at the change (all
 * three profiles run HTTP at a fixed delay: the next probe starts an interval later) and the first probe after it
 * sees the change whole. 000 (16 s / 13 s) and 003 (13 s / 7 s) run in the default tier (each under 90 s);
 * 001 (75 s / 63 s; about 6.5 minutes with its 30 s interval) is tagged {@code long}.
 */
@ExtendWith(KafkaExtension.class)
class ProfileWindowsIT {

    private static final Logger LOG = LoggerFactory.getLogger(ProfileWindowsIT.class);
    /** Time allowed on top of the document's window for publishing, aggregating and committing. */
    private static final long SLACK_MS = 1_000;
    /** A real probe lasts its timeout plus the timer's tick; a measured window may start a few ms late. */
    private static final long EARLY_MS = 50;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(120)
    void tencentClb16sAnd13s(TestKafka kafka) {
        run(kafka, TargetProfile.TENCENT_CLB);
    }

    @Test
    @Timeout(90)
    void alibabaGa13sAnd7s(TestKafka kafka) {
        run(kafka, TargetProfile.ALIBABA_GA);
    }

    @Test
    @Tag("long")
    @Timeout(600)
    void tencentEdgeOne75sAnd63s(TestKafka kafka) {
        run(kafka, TargetProfile.TENCENT_EDGEONE);
    }

    private void run(TestKafka kafka, TargetProfile profile) {
        WorkedExample example = ProfileTable.of(profile).examples().stream()
                .filter(e -> e.protocol() == Protocol.HTTP).findFirst().orElseThrow();
        Duration patience = Duration.ofMillis(3L * (example.toUnhealthyMs() + example.intervalMs()) + 20_000);
        try (LoopbackHttpBackend backend = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            backend.answerAfter(example.responseMs());
            pipeline.startProber("a", List.of());
            String id = profile.name().toLowerCase() + "-web";
            TargetSpec target = example.toSpec(profile, id, backend.host(), backend.port()).withGroup("web");
            pipeline.define(target);
            awaitStatus(pipeline, id, HealthStatus.HEALTHY, 0L, patience.plus(Pipeline.STARTUP));

            // hang right after a success was published: the next probe, an interval later, is the first to see it
            awaitResult(pipeline, id, r -> r.getOutcome() == ProbeOutcome.SUCCESS, System.currentTimeMillis(), patience);
            long hungAt = backend.hang();
            Received<TargetHealth> down = awaitStatus(pipeline, id, HealthStatus.UNHEALTHY, hungAt, patience);
            ProbeResult firstFailing = awaitResult(pipeline, id, r -> r.getOutcome() != ProbeOutcome.SUCCESS,
                    hungAt, patience);
            assertWindow(profile, "UNHEALTHY", firstFailing, down, example.toUnhealthyMs());
            assertThat(firstFailing.getOutcome()).isEqualTo(ProbeOutcome.TIMEOUT);
            assertThat(down.value().getReason()).isEqualTo(ProbeOutcome.TIMEOUT);

            // answer (in 1 s) again right after a timeout was published, for the same reason
            awaitResult(pipeline, id, r -> r.getOutcome() == ProbeOutcome.TIMEOUT, System.currentTimeMillis(), patience);
            long resumedAt = backend.resume();
            Received<TargetHealth> up = awaitStatus(pipeline, id, HealthStatus.HEALTHY, resumedAt, patience);
            ProbeResult firstSucceeding = awaitResult(pipeline, id, r -> r.getOutcome() == ProbeOutcome.SUCCESS,
                    resumedAt, patience);
            assertWindow(profile, "HEALTHY", firstSucceeding, up, example.toHealthyMs());
            assertThat(up.value().getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(DetectionWindow.of(target, Duration.ofMillis(example.responseMs())).toHealthy().toMillis())
                    .isEqualTo(example.toHealthyMs());
        }
    }

    private static void assertWindow(TargetProfile profile, String status, ProbeResult first,
                                     Received<TargetHealth> event, long documentMs) {
        long measured = event.receivedAtMs() - first.getStartedAtMs();
        LOG.info("measured {}: {} received {} ms after the first probe that saw the change started (document: {} ms)",
                profile, status, measured, documentMs);
        assertThat(measured).as(profile + ": ms from the first probe that saw the change to " + status)
                .isBetween(documentMs - EARLY_MS, documentMs + SLACK_MS);
    }

    private static Received<TargetHealth> awaitStatus(Pipeline pipeline, String id, HealthStatus status,
                                                      long notBeforeMs, Duration patience) {
        return Await.value(patience, () -> pipeline.health().of(id).stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null
                                && r.value().getStatus() == status)
                        .findFirst(),
                () -> id + " never " + status + "; events: " + pipeline.health().of(id));
    }

    /** The first result of {@code id} that matches and started at or after {@code startedNotBeforeMs}. */
    private static ProbeResult awaitResult(Pipeline pipeline, String id, Predicate<ProbeResult> matching,
                                           long startedNotBeforeMs, Duration patience) {
        return Await.value(patience, () -> pipeline.results().of(id).stream()
                        .map(Received::value)
                        .filter(r -> r != null && r.getStartedAtMs() >= startedNotBeforeMs && matching.test(r))
                        .findFirst(),
                () -> id + ": no matching probe result; results: " + pipeline.results().of(id));
    }
}
