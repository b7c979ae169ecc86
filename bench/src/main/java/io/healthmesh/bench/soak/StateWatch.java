package io.healthmesh.bench.soak;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads the state events as a downstream consumer does ({@code read_committed}, every partition from the start) and
 * judges each as it comes: a steady target, once HEALTHY, must stay HEALTHY in every event; a flapping target's
 * changes between HEALTHY and UNHEALTHY are counted (they prove the run could see a change at all). Stale events
 * are counted apart: missing results never change a status (BEHAVIOUR.md section 6).
 */
final class StateWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StateWatch.class);
    /** False events described in the log, at most (all are counted). */
    static final int MAX_DESCRIBED = 20;

    private final KafkaConsumer<String, TargetHealth> consumer;
    private final Set<String> flapping;
    private final Map<String, HealthStatus> latest = new HashMap<>();
    private final Set<String> everHealthy = new HashSet<>();
    private final List<String> described = new ArrayList<>();
    private final Thread thread;
    private long events;
    private long falseEvents;
    private long staleEvents;
    private long flappingFlips;

    StateWatch(String bootstrapServers, String registryUrl, String topic, Set<String> flapping) {
        this.flapping = Set.copyOf(flapping);
        AvroSerde<TargetHealth> serde = AvroSerde.forValues(TargetHealth.class,
                Map.of("schema.registry.url", registryUrl));
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new StringDeserializer(), serde.deserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.thread = new Thread(this::run, "soak-state-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, TargetHealth> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() != null) {
                        judge(r.value());
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("the state watch stopped: the soak's event figures end here", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    synchronized void judge(TargetHealth event) {
        events++;
        if (event.getStale()) {
            staleEvents++;
        }
        String id = event.getTargetId();
        HealthStatus status = event.getStatus();
        HealthStatus before = latest.put(id, status);
        if (flapping.contains(id)) {
            if (before != null && before != status && status != HealthStatus.DETECTING
                    && before != HealthStatus.DETECTING) {
                flappingFlips++;
            }
            return;
        }
        if (status == HealthStatus.UNHEALTHY || status == HealthStatus.DISABLED
                || (everHealthy.contains(id) && status != HealthStatus.HEALTHY)) {
            falseEvents++;
            if (described.size() < MAX_DESCRIBED) {
                String what = id + " " + before + " -> " + status + " (stale " + event.getStale() + ", reason "
                        + event.getReason() + ": " + event.getReasonDetail() + ")";
                described.add(what);
                LOG.error("false state event: {}", what);
            }
        }
        if (status == HealthStatus.HEALTHY) {
            everHealthy.add(id);
        }
    }

    synchronized long events() {
        return events;
    }

    synchronized long falseEvents() {
        return falseEvents;
    }

    synchronized long staleEvents() {
        return staleEvents;
    }

    synchronized long flappingFlips() {
        return flappingFlips;
    }

    /** The first false events, described. */
    synchronized List<String> describedFalseEvents() {
        return List.copyOf(described);
    }

    /** How many of {@code steady} have HEALTHY as their latest status. */
    synchronized long healthy(Set<String> steady) {
        return steady.stream().filter(id -> latest.get(id) == HealthStatus.HEALTHY).count();
    }

    @Override
    public void close() throws InterruptedException {
        consumer.wakeup();
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
