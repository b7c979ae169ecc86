package io.healthmesh.aggregator;

import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicReads;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Producing inputs to and reading outputs from a real broker, for the aggregator's {@code *IT} tests. */
final class BrokerRecords implements AutoCloseable {

    private final TestKafka kafka;
    private final Topics topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final AvroSerde<TargetDefinition> definitions;
    private final AvroSerde<ProbeResult> results;

    BrokerRecords(TestKafka kafka, Topics topics) {
        this.kafka = kafka;
        this.topics = topics;
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer());
        this.definitions = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
        this.results = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
    }

    void define(TargetDefinition d, long timestamp) {
        send(topics.targets(), d.getId(), definitions.serializer().serialize(topics.targets(), d), timestamp);
    }

    void delete(String id, long timestamp) {
        send(topics.targets(), id, null, timestamp);
    }

    void result(ProbeResult r, long timestamp) {
        send(topics.probeResults(), r.getTargetId(), results.serializer().serialize(topics.probeResults(), r), timestamp);
    }

    void raw(String topic, byte[] key, byte[] value, long timestamp) {
        producer.send(new ProducerRecord<>(topic, null, timestamp, key, value));
    }

    private void send(String topic, String key, byte[] value, long timestamp) {
        raw(topic, key.getBytes(StandardCharsets.UTF_8), value, timestamp);
    }

    void flush() {
        producer.flush();
    }

    /** Reads {@code topic}'s committed records from the beginning until {@code done} holds, or fails after {@code timeout}. */
    <V> List<ConsumerRecord<String, V>> readUntil(String topic, Deserializer<V> values,
                                                  Predicate<List<ConsumerRecord<String, V>>> done, Duration timeout) {
        return TopicReads.readCommittedUntil(kafka.bootstrapServers(), topic, values, done, timeout);
    }

    /** Every committed record of {@code topic}, read up to its last stable offset. */
    <V> List<ConsumerRecord<String, V>> readAll(String topic, Deserializer<V> values, Duration timeout) {
        return TopicReads.readCommitted(kafka.bootstrapServers(), topic, values, timeout);
    }

    /** A deserializer of raw bytes, for the rejected topic. */
    static Deserializer<byte[]> bytes() {
        return new ByteArrayDeserializer();
    }

    @Override
    public void close() {
        producer.close();
        definitions.close();
        results.close();
    }
}
