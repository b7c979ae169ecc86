package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cold prober: the prober of a region is stopped and a new one started while many healthy targets are
 * watched. The new worker has a cold probe engine, an empty resolver cache, a new timer and a burst of first probes
 * to make (the JIT of this JVM is warm: the whole prober process is not restarted here). Its first-start jitter
 * spreads the burst over the interval, and whatever it cannot judge fairly is INCONCLUSIVE: no target may turn
 * UNHEALTHY. Judged by replaying the published results through the aggregator's state machine ({@link Replay}); on
 * this embedded broker the aggregator's exactly-once producer fell behind under hundreds of targets, so its events are
 * not what is asserted. The CI variant watches 200 targets probed every second; the 10,000-target variant is tagged {@code long}.
 */
@ExtendWith(KafkaExtension.class)
class ColdProberRestartIT {

    private static final Logger LOG = LoggerFactory.getLogger(ColdProberRestartIT.class);
    private static final int BACKENDS = 20;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void aRestartedProberFlipsNoneOf200HealthyTargets(TestKafka kafka) {
        restartUnder(kafka, 200, 1_000, Duration.ofSeconds(10));
    }

    @Test
    @Tag("long")
    @Timeout(600)
    void aRestartedProberFlipsNoneOf10000HealthyTargets(TestKafka kafka) {
        restartUnder(kafka, 10_000, 5_000, Duration.ofSeconds(60));
    }

    private void restartUnder(TestKafka kafka, int targets, int intervalMs, Duration watch) {
        try (TcpBackends backends = new TcpBackends(BACKENDS);
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            List<TargetSpec> specs = new ArrayList<>();
            for (int i = 0; i < targets; i++) {
                specs.add(TargetSpec.of(String.format("cold-%05d", i), "pool-" + (i % 50), "127.0.0.1",
                        backends.port(i % BACKENDS), Protocol.TCP).withTiming(intervalMs, Math.min(2_000, intervalMs)));
            }
            Set<String> ids = specs.stream().map(TargetSpec::id).collect(Collectors.toSet());
            Map<String, TargetSpec> byId = specs.stream().collect(Collectors.toMap(TargetSpec::id, t -> t));
            pipeline.defineAll(specs);
            Map<String, String> settings = new HashMap<>();
            settings.put("max.in.flight", "5000");
            pipeline.startProber("a", List.of(), settings);
            Duration settle = Duration.ofSeconds(60 + targets / 200);
            Await.until(settle, () -> healthy(pipeline, byId).containsAll(ids),
                    () -> (ids.size() - healthy(pipeline, byId).size()) + " of " + targets + " targets not HEALTHY yet");

            long restartAt = pipeline.stopProber("a");
            pipeline.startProber("a", List.of(), settings);
            long readyAt = System.currentTimeMillis();
            LOG.info("prober restarted: down {} ms", readyAt - restartAt);
            Await.until(watch.plusSeconds(30), () -> probedSince(pipeline, readyAt).containsAll(ids),
                    () -> "targets not probed by the new prober yet: " + (ids.size() - probedSince(pipeline, readyAt).size()));
            long everyProbedAt = System.currentTimeMillis();
            long until = everyProbedAt + watch.toMillis();
            while (System.currentTimeMillis() < until) {
                assertThat(unhealthy(pipeline, byId)).as("targets that turned UNHEALTHY").isEmpty();
                sleep(500);
            }
            List<ProbeResult> after = pipeline.results().all().stream().map(Received::value)
                    .filter(r -> r.getStartedAtMs() >= readyAt).toList();
            Map<ProbeOutcome, Long> outcomes = after.stream()
                    .collect(Collectors.groupingBy(ProbeResult::getOutcome, Collectors.counting()));
            LOG.info("after the restart ({} targets): {} results, outcomes {}", targets, after.size(), outcomes);
            assertThat(unhealthy(pipeline, byId)).as("targets that turned UNHEALTHY").isEmpty();
        }
    }

    private static List<Replay.Change> replay(Pipeline pipeline, Map<String, TargetSpec> byId) {
        return Replay.changes(pipeline.results().all().stream().map(Received::value).toList(), byId);
    }

    /** Targets whose last status (replayed) is HEALTHY. */
    private static Set<String> healthy(Pipeline pipeline, Map<String, TargetSpec> byId) {
        Map<String, io.healthmesh.core.health.HealthStatus> latest = new HashMap<>();
        replay(pipeline, byId).forEach(c -> latest.put(c.targetId(), c.status()));
        return latest.entrySet().stream().filter(e -> e.getValue() == io.healthmesh.core.health.HealthStatus.HEALTHY)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    private static List<String> unhealthy(Pipeline pipeline, Map<String, TargetSpec> byId) {
        return replay(pipeline, byId).stream()
                .filter(c -> c.status() == io.healthmesh.core.health.HealthStatus.UNHEALTHY)
                .map(c -> c.targetId() + " (" + c.reason() + ")").toList();
    }

    private static Set<String> probedSince(Pipeline pipeline, long since) {
        return pipeline.results().all().stream().map(Received::value).filter(r -> r.getStartedAtMs() >= since)
                .map(r -> r.getTargetId().toString()).collect(Collectors.toSet());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
