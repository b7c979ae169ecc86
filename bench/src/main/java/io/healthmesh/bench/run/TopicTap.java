package io.healthmesh.bench.run;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Reads every partition of one topic from its end on a thread of its own (no consumer group, nothing committed)
 * and hands each record to {@link #onRecord} with the wall-clock instant it was received.
 */
abstract class TopicTap<V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicTap.class);

    private final KafkaConsumer<String, V> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    TopicTap(BenchStack stack, String topic, Deserializer<V> values, String isolation) {
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000"),
                new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        this.thread = new Thread(this::run, "bench-tap-" + topic);
        this.thread.setDaemon(true);
    }

    final void startReading() {
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.value() != null) {
                        Instant now = Instant.now();
                        onRecord(record.key(), record.value(), now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("tap stopped", e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    abstract void onRecord(String key, V value, long receivedEpochMicros);

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
