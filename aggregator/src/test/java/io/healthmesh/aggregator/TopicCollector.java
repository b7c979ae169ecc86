package io.healthmesh.aggregator;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Reads a topic with {@code read_committed} on a background thread from the beginning, noting when each record
 * arrived (the test's wall clock), so a test can wait for an event and measure how long it took to be visible.
 */
final class TopicCollector<V> implements AutoCloseable {

    /** A record and when this collector received it. */
    record Received<V>(long receivedAtMs, ConsumerRecord<String, V> record) {
        String key() {
            return record.key();
        }

        V value() {
            return record.value();
        }
    }

    private final KafkaConsumer<String, V> consumer;
    private final List<Received<V>> received = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    TopicCollector(String bootstrapServers, String topic, Deserializer<V> values) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.GROUP_ID_CONFIG, "it-collector-" + System.nanoTime()),
                new StringDeserializer(), values);
        consumer.subscribe(List.of(topic));
        thread = new Thread(this::run, "collector-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(50))) {
                    received.add(new Received<>(System.currentTimeMillis(), r));
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Waits for the first record (after {@code fromIndex}) that matches, failing after {@code timeout}. */
    Received<V> await(int fromIndex, Predicate<Received<V>> match, Duration timeout, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Received<V>> now = List.copyOf(received);
            for (int i = fromIndex; i < now.size(); i++) {
                if (match.test(now.get(i))) {
                    return now.get(i);
                }
            }
            Thread.sleep(20); // polling what the consumer thread collected, bounded by the deadline
        }
        throw new AssertionError("no " + what + " within " + timeout + "; received: " + received);
    }

    int size() {
        return received.size();
    }

    List<Received<V>> all() {
        return List.copyOf(received);
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
