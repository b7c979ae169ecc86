package io.healthmesh.aggregator;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BEHAVIOUR.md section 6, "Catching up", on the real broker: an aggregator is stopped while its targets' probes go on,
 * the results pile up for longer than the staleness window, and the aggregator started again reads them: no target
 * whose results kept coming is marked stale, neither while it catches up nor after.
 */
@ExtendWith(KafkaExtension.class)
class CatchUpStalenessIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int TARGETS = 50;
    /** Interval 1 s, timeout 500 ms, factor 5: window 5.5 s (slack for a loaded machine's scheduling). */
    private static final int INTERVAL_MS = 1_000;
    private static final int DOWNTIME_ROUNDS = 8;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(180)
    void resultsThatPiledUpWhileTheAggregatorWasDownMarkNothingStale(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "catchup-" + run + ".";
        Topics topics = new Topics(prefix);
        Map<String, String> settings = AggregatorWorkerIT.settings(kafka, "catchup-" + run, prefix, stateDir);
        settings.put("staleness.factor", "5");
        List<TargetSpec> specs = new ArrayList<>();
        for (int i = 0; i < TARGETS; i++) {
            specs.add(TargetSpec.of(String.format("c-%02d", i), "pool", "10.2.0." + (i + 1), 80, Protocol.TCP)
                    .withTiming(INTERVAL_MS, 500));
        }
        AtomicInteger rounds = new AtomicInteger();
        ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();
        try (BrokerRecords broker = new BrokerRecords(kafka, topics);
             AvroSerde<TargetHealth> health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig())) {
            long stoppedProbingAtMs;
            long allHealthyAtMs;
            try (AggregatorWorker first = AggregatorWorker.start(AggregatorConfig.from(settings))) {
                AggregatorWorkerIT.awaitRunning(first);
                long defined = System.currentTimeMillis();
                specs.forEach(s -> broker.define(TargetSpecs.toAvro(s), defined));
                broker.flush();
                // a prober: every target once a second, stamped when sent (bounded by the test's timeout)
                prober.scheduleAtFixedRate(() -> {
                    long now = System.currentTimeMillis();
                    for (TargetSpec s : specs) {
                        broker.result(ProbeResult.newBuilder().setTargetId(s.id())
                                .setGeneration(ProbeFingerprint.of(s)).setRegion("default").setProberId("p-1")
                                .setProtocol(io.healthmesh.schema.Protocol.TCP).setStartedAtMs(now - 1)
                                .setOutcome(ProbeOutcome.SUCCESS).setLatencyMicros(1_000).build(), now);
                    }
                    broker.flush();
                    rounds.incrementAndGet();
                }, 200, INTERVAL_MS, TimeUnit.MILLISECONDS);
                broker.readUntil(topics.healthState(), health.deserializer(), read -> read.stream()
                        .filter(r -> r.value() != null && r.value().getStatus().name().equals("HEALTHY"))
                        .map(ConsumerRecord::key).distinct().count() == TARGETS, PATIENCE);
                // before the first results arrived the targets were rightly stale (nothing was probing yet)
                allHealthyAtMs = System.currentTimeMillis();
            }
            int atStop = rounds.get();
            Await.until(PATIENCE, () -> rounds.get() >= atStop + DOWNTIME_ROUNDS,
                    () -> "the prober's rounds while the aggregator is down: " + (rounds.get() - atStop));
            try (AggregatorWorker second = AggregatorWorker.start(AggregatorConfig.from(settings))) {
                AggregatorWorkerIT.awaitRunning(second);
                int atRestart = rounds.get();
                Await.until(PATIENCE, () -> rounds.get() >= atRestart + 5,
                        () -> "the prober's rounds after the restart: " + (rounds.get() - atRestart));
                prober.shutdown();
                assertThat(prober.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                stoppedProbingAtMs = System.currentTimeMillis();
                // the targets go stale from here on, as they should: the prober stopped (the control of this test)
                broker.readUntil(topics.healthState(), health.deserializer(), read -> read.stream()
                        .filter(r -> r.value() != null && r.value().getStale())
                        .map(ConsumerRecord::key).distinct().count() == TARGETS, PATIENCE);
            }
            List<ConsumerRecord<String, TargetHealth>> events = broker.readAll(topics.healthState(),
                    health.deserializer(), PATIENCE);
            List<ConsumerRecord<String, TargetHealth>> staleWhileProbed = events.stream()
                    .filter(r -> r.value() != null && r.value().getStale() && r.timestamp() >= allHealthyAtMs
                            && r.timestamp() < stoppedProbingAtMs)
                    .toList();
            assertThat(staleWhileProbed).as("stale events while every target was probed").isEmpty();
            long stale = events.stream().filter(r -> r.value() != null && r.value().getStale()
                    && r.timestamp() >= stoppedProbingAtMs).count();
            assertThat(stale).as("once each, after the prober stopped").isEqualTo(TARGETS);
        } finally {
            prober.shutdownNow();
        }
    }
}
