package io.healthmesh.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One-shot reads and writes with real Kafka clients, every wait bounded by a deadline: string records for broker
 * tests, and a {@code read_committed} read of a whole topic (or until a condition holds) for any value type.
 */
public final class TopicReads {

    /** How long a produce or a read may take before the test fails. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    private TopicReads() {
    }

    /** A record as the test sees it. */
    public record KeyValue(String key, String value) {
    }

    /** Produces {@code records} in order and waits until the broker acknowledged all of them. */
    public static void produce(String bootstrapServers, String topic, List<KeyValue> records) {
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
    public static List<KeyValue> readAll(String bootstrapServers, String topic) {
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

    /**
     * Every committed record of {@code topic}, read from the beginning up to its last stable offset as of the call.
     */
    public static <V> List<ConsumerRecord<String, V>> readCommitted(String bootstrapServers, String topic,
                                                                     Deserializer<V> values, Duration timeout) {
        List<ConsumerRecord<String, V>> read = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = committedReader(bootstrapServers, values)) {
            List<TopicPartition> partitions = fromTheBeginning(consumer, topic, timeout);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout); // the LSO under read_committed
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end within " + timeout);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
        }
        return read;
    }

    /** Assigns every partition of {@code topic} to {@code consumer}, each at its beginning; returns them. */
    private static List<TopicPartition> fromTheBeginning(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic, timeout).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    /**
     * Reads {@code topic}'s committed records from the beginning until {@code done} holds for what was read, or fails
     * after {@code timeout}.
     */
    public static <V> List<ConsumerRecord<String, V>> readCommittedUntil(
            String bootstrapServers, String topic, Deserializer<V> values,
            Predicate<List<ConsumerRecord<String, V>>> done, Duration timeout) {
        List<ConsumerRecord<String, V>> read = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = committedReader(bootstrapServers, values)) {
            List<TopicPartition> partitions = fromTheBeginning(consumer, topic, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(read)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("after " + timeout + ", " + read.size() + " records on " + topic
                            + " and the condition still false; read: " + describe(read));
                }
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
        }
        return read;
    }

    /** The last 40 records read at most, each as partition@offset, key, the value's text (cut) and its headers. */
    static String describe(List<? extends ConsumerRecord<String, ?>> read) {
        StringBuilder out = new StringBuilder();
        int from = Math.max(0, read.size() - 40);
        if (from > 0) {
            out.append("(the first ").append(from).append(" left out) ");
        }
        for (ConsumerRecord<String, ?> r : read.subList(from, read.size())) {
            out.append("\n  ").append(r.partition()).append('@').append(r.offset()).append(' ').append(r.key())
                    .append(" = ").append(cut(r.value() instanceof byte[] bytes
                            ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(r.value()), 200));
            for (Header h : r.headers()) {
                out.append(" [").append(h.key()).append('=')
                        .append(cut(h.value() == null ? "null" : new String(h.value(), StandardCharsets.UTF_8), 80))
                        .append(']');
            }
        }
        return out.toString();
    }

    private static String cut(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "..." : text;
    }

    private static <V> KafkaConsumer<String, V> committedReader(String bootstrapServers, Deserializer<V> values) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), values);
    }
}
