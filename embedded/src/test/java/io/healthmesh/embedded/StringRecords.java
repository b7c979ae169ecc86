package io.healthmesh.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes and reads string records with real Kafka clients, every wait bounded by a deadline. */
final class StringRecords {

    static final Duration PATIENCE = Duration.ofSeconds(30);

    private StringRecords() {
    }

    /** A record as the test sees it. */
    record KeyValue(String key, String value) {
    }

    /** Produces {@code records} in order and waits until the broker acknowledged all of them. */
    static void produce(String bootstrapServers, String topic, List<KeyValue> records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) PATIENCE.toMillis());
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (KeyValue kv : records) {
                producer.send(new ProducerRecord<>(topic, kv.key(), kv.value())).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic + " at " + bootstrapServers, e);
        }
    }

    /** Every record of every partition of {@code topic}, from the beginning to the end offsets seen at the call. */
    static List<KeyValue> readAll(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Instant deadline = Instant.now().plus(PATIENCE);
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, PATIENCE).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, PATIENCE);
            List<KeyValue> records = new ArrayList<>();
            while (!reached(consumer, end)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("did not read " + topic + " up to " + end + " within " + PATIENCE
                            + "; got " + records);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    records.add(new KeyValue(r.key(), r.value()));
                }
            }
            return records;
        }
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), PATIENCE) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
