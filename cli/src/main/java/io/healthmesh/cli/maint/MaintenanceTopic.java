package io.healthmesh.cli.maint;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * The compacted maintenance topic as the CLI sees it: every current window (read to the end), a window written or a
 * tombstone, each acknowledged by all in-sync replicas before the command reports success.
 */
final class MaintenanceTopic {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaOptions options;
    private final String topic;

    MaintenanceTopic(KafkaOptions options) {
        this.options = requireNonNull(options, "options");
        this.topic = options.topics().maintenance();
    }

    String name() {
        return topic;
    }

    /** The windows the topic holds, by id, and the keys whose values could not be read as windows. */
    record Contents(Map<String, MaintenanceWindow> windows, List<String> undecodable) {
    }

    Contents read() {
        requireExists();
        Map<String, byte[]> raw = CompactedTopicReader.readToEnd(options.clientProperties(), topic, TIMEOUT);
        Map<String, MaintenanceWindow> out = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        try (AvroSerde<Maintenance> serde = AvroSerde.forValues(Maintenance.class, options.serdeConfig())) {
            raw.forEach((id, bytes) -> {
                try {
                    out.put(id, MaintenanceRecords.fromAvro(serde.deserializer().deserialize(topic, bytes)));
                } catch (RuntimeException e) {
                    undecodable.add(id + ": " + e.getMessage());
                }
            });
        }
        return new Contents(out, undecodable);
    }

    void write(MaintenanceWindow w) {
        send(w.id(), MaintenanceRecords.toAvro(w));
    }

    void end(String id) {
        send(id, null);
    }

    private void requireExists() {
        try (Admin admin = Admin.create(options.clientProperties())) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("topic " + topic + " does not exist on " + options.bootstrapServers()
                        + " (start `healthmesh demo`, or an aggregator, which create the topics)");
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

    private void send(String id, Maintenance value) {
        requireExists();
        Properties props = options.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        try (AvroSerde<Maintenance> serde = AvroSerde.forValues(Maintenance.class, options.serdeConfig());
             KafkaProducer<String, Maintenance> producer =
                     new KafkaProducer<>(props, new StringSerializer(), serde.serializer())) {
            producer.send(new ProducerRecord<>(topic, id, value)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
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
