package io.healthmesh.pipeline;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Reads one topic from the beginning on its own thread with a {@code read_committed} consumer (what a user of the
 * state topics sees: the aggregator writes them in exactly-once transactions) and keeps every record with the
 * wall-clock instant it was received, for tests to search and to time.
 *
 * @param <V> the value type
 */
final class TopicLog<V> implements AutoCloseable {

    /** One record as received. */
    record Received<V>(String key, V value, long receivedAtMs, int partition, long offset) {
    }

    private final KafkaConsumer<String, V> consumer;
    private final List<Received<V>> records = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    TopicLog(String bootstrapServers, String topic, Deserializer<V> values) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), values);
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic + " has no partitions (expected: created beforehand)");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "topic-log-" + topic);
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
    List<Received<V>> all() {
        if (failure != null) {
            throw new IllegalStateException("the reader failed", failure);
        }
        return List.copyOf(records);
    }

    /** The records of {@code key} received so far, in order. */
    List<Received<V>> of(String key) {
        return all().stream().filter(r -> key.equals(r.key())).toList();
    }

    /** The first record of {@code key} that matches, if it was received. */
    Optional<Received<V>> first(String key, Predicate<V> matching) {
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
