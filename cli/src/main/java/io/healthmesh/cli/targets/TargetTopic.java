package io.healthmesh.cli.targets;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
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
 * The compacted targets topic as the CLI sees it: read every current definition, write definitions (key = id,
 * Avro value through {@link AvroSerde}) and tombstones, each write acknowledged by all in-sync replicas before
 * the command reports success.
 */
public final class TargetTopic {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaOptions options;
    private final String topic;

    public TargetTopic(KafkaOptions options) {
        this.options = requireNonNull(options, "options");
        this.topic = options.topics().targets();
    }

    public String name() {
        return topic;
    }

    /** What the topic currently holds, and the keys whose values could not be decoded. */
    public record Contents(Map<String, TargetDefinition> definitions, List<String> undecodable) {
    }

    /** Every current definition, by id, in topic order; fails clearly when the topic or the cluster is missing. */
    public Contents read() {
        requireExists();
        Map<String, byte[]> raw = CompactedTopicReader.readToEnd(options.clientProperties(), topic, TIMEOUT);
        Map<String, TargetDefinition> out = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, options.serdeConfig())) {
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

    /** Fails with a clear message when the topic does not exist (it is never auto-created with wrong settings). */
    public void requireExists() {
        try (Admin admin = Admin.create(options.clientProperties())) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("topic " + topic + " does not exist on " + options.bootstrapServers()
                        + " (start `healthmesh demo`, or a prober/aggregator, which create the topics)");
            }
            throw new IllegalStateException("cannot reach Kafka at " + options.bootstrapServers() + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at " + options.bootstrapServers() + " within "
                    + TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Writes every spec and waits until all are acknowledged. */
    public void write(List<TargetSpec> specs) {
        Map<String, TargetDefinition> records = new LinkedHashMap<>();
        specs.forEach(s -> records.put(s.id(), TargetSpecs.toAvro(s)));
        send(records);
    }

    /** Writes a tombstone for every id and waits until all are acknowledged. */
    public void delete(List<String> ids) {
        Map<String, TargetDefinition> tombstones = new LinkedHashMap<>();
        ids.forEach(id -> tombstones.put(id, null));
        send(tombstones);
    }

    private void send(Map<String, TargetDefinition> records) {
        Properties props = options.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, options.serdeConfig());
             KafkaProducer<String, TargetDefinition> producer =
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
