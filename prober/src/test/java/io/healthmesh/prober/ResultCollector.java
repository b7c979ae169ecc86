package io.healthmesh.prober;

import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schemas.serde.AvroSerde;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** Reads every probe result of a topic on its own thread, for ITs to inspect. */
final class ResultCollector implements AutoCloseable {

    private final KafkaConsumer<String, ProbeResult> consumer;
    private final List<ProbeResult> results = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    ResultCollector(String bootstrapServers, Map<String, Object> serdeConfig, String topic, int partitions) {
        AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, serdeConfig);
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), serde.deserializer());
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        thread = new Thread(this::run, "result-collector");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, ProbeResult> r : consumer.poll(Duration.ofMillis(100))) {
                    results.add(r.value());
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    List<ProbeResult> results() {
        return List.copyOf(results);
    }

    List<ProbeResult> results(Predicate<ProbeResult> filter) {
        return results.stream().filter(filter).toList();
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
