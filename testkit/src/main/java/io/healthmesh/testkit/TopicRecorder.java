package io.healthmesh.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Records every record of one topic, from the beginning, on a thread of its own, with the wall-clock instant each was
 * received, for tests to search and to time. It reads {@code read_committed} (what a user of the aggregator's
 * exactly-once state topics sees), without a consumer group.
 *
 * @param <V> the value type
 */
public final class TopicRecorder<V> implements AutoCloseable {

    /** One record as received. */
    public record Received<V>(String key, V value, long receivedAtMs, int partition, long offset) {
    }

    private final KafkaConsumer<String, V> consumer;
    private final List<Received<V>> records = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    /**
     * Starts recording {@code topic}, which must exist.
     *
     * @throws IllegalStateException when the topic has no partitions
     */
    public TopicRecorder(String bootstrapServers, String topic, Deserializer<V> values) {
        this(bootstrapServers, topic, values, Map.of());
    }

    /**
     * {@link #TopicRecorder(String, String, Deserializer)} with more consumer settings, e.g. a short
     * {@code request.timeout.ms} so that the recorder itself does not wait long on a lost broker.
     */
    public TopicRecorder(String bootstrapServers, String topic, Deserializer<V> values, Map<String, Object> more) {
        Map<String, Object> props = new HashMap<>(more);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), values);
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic + " has no partitions (expected: created beforehand)");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "topic-recorder-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(50))) {
                    records.add(new Received<>(r.key(), r.value(), System.currentTimeMillis(), r.partition(),
                            r.offset()));
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    /** Everything received so far, in the order received (per key: the order written). */
    public List<Received<V>> all() {
        if (failure != null) {
            throw new IllegalStateException("the recorder's consumer failed", failure);
        }
        return List.copyOf(records);
    }

    /** The values received so far, tombstones left out. */
    public List<V> values() {
        return all().stream().map(Received::value).filter(v -> v != null).toList();
    }

    /** The values received so far that match {@code filter}. */
    public List<V> values(Predicate<V> filter) {
        return values().stream().filter(filter).toList();
    }

    /** The records of {@code key} received so far, in order. */
    public List<Received<V>> of(String key) {
        return all().stream().filter(r -> key.equals(r.key())).toList();
    }

    /** The first record of {@code key} whose value matches, if it was received. */
    public Optional<Received<V>> first(String key, Predicate<V> matching) {
        return of(key).stream().filter(r -> r.value() != null && matching.test(r.value())).findFirst();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
