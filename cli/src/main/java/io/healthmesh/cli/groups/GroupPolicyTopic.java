package io.healthmesh.cli.groups;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.GroupPolicy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * The compacted {@code groups} topic as the CLI sees it: read every current policy, write policies (key = group id)
 * and tombstones, each write acknowledged by all in-sync replicas before the command reports success.
 */
final class GroupPolicyTopic {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaOptions options;
    private final String topic;

    GroupPolicyTopic(KafkaOptions options) {
        this.options = requireNonNull(options, "options");
        this.topic = options.topics().groups();
    }

    String name() {
        return topic;
    }

    /** What the topic holds, and the keys whose values could not be decoded. */
    record Contents(Map<String, GroupPolicy> policies, List<String> undecodable) {
    }

    /** Every current policy by group id; fails clearly when the topic or the cluster is missing. */
    Contents read() {
        requireExists();
        Map<String, byte[]> raw = CompactedTopicReader.readToEnd(options.clientProperties(), topic, TIMEOUT);
        Map<String, GroupPolicy> out = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        try (AvroSerde<GroupPolicy> serde = AvroSerde.forValues(GroupPolicy.class, options.serdeConfig())) {
            raw.forEach((id, bytes) -> {
                try {
                    out.put(id, serde.deserializer().deserialize(topic, bytes));
                } catch (RuntimeException e) {
                    undecodable.add(id + ": " + e.getMessage());
                }
            });
        }
        return new Contents(out, undecodable);
    }

    /** The topic must exist: it is created with the others by an aggregator, a prober or {@code healthmesh demo}. */
    void requireExists() {
        try (Admin admin = Admin.create(options.clientProperties())) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("topic " + topic + " is not readable on " + options.bootstrapServers()
                    + ": " + e.getCause().getMessage() + " (an aggregator of this version creates it)", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at " + options.bootstrapServers() + " within "
                    + TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Writes each group's policy ({@code null}: a tombstone) and waits until all are acknowledged. */
    void send(Map<String, GroupPolicy> records) {
        requireExists();
        Properties props = options.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        try (AvroSerde<GroupPolicy> serde = AvroSerde.forValues(GroupPolicy.class, options.serdeConfig());
             KafkaProducer<String, GroupPolicy> producer =
                     new KafkaProducer<>(props, new StringSerializer(), serde.serializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            records.forEach((id, value) -> acks.add(producer.send(new ProducerRecord<>(topic, id, value))));
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("write to " + topic + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("write to " + topic + " not acknowledged within " + TIMEOUT.toSeconds()
                    + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
