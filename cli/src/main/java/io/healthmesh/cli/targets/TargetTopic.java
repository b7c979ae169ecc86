package io.healthmesh.cli.targets;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

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
        write(specs, null);
    }

    /**
     * Writes every spec and waits until all are acknowledged; {@code acked}, when given, advances once per
     * acknowledged record (from the producer's thread).
     */
    public void write(List<TargetSpec> specs, Progress acked) {
        send(specs.size(), i -> specs.get(i).id(), i -> TargetSpecs.encode(specs.get(i)), acked);
    }

    /**
     * Writes definitions encoded already ({@link TargetSpecs#encode}; {@code ids.get(i)} is the key of
     * {@code bodies.get(i)}), in list order, and waits until all are acknowledged; {@code acked} as in
     * {@link #write(List, Progress)}.
     */
    public void writeEncoded(List<String> ids, List<byte[]> bodies, Progress acked) {
        if (ids.size() != bodies.size()) {
            throw new IllegalArgumentException(ids.size() + " ids for " + bodies.size() + " definitions");
        }
        send(ids.size(), ids::get, bodies::get, acked);
    }

    /** Writes a tombstone for every id and waits until all are acknowledged. */
    public void delete(List<String> ids) {
        send(ids.size(), ids::get, i -> null, null);
    }

    /**
     * Sends {@code count} records, each value an encoded body (or null, a tombstone) that gets its wire header as it
     * is sent, in list order (one producer: records of a key keep their order), in large compressed batches; then waits until every one is acknowledged by all in-sync
     * replicas. The first failure is reported; nothing is retried beyond the producer's own retries.
     */
    private void send(int count, IntFunction<String> key, IntFunction<byte[]> value, Progress acked) {
        Properties props = options.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        // the topic stores gzip (what every client can read): compress here, so the broker does not recompress
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong pending = new AtomicLong();
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, options.serdeConfig());
             KafkaProducer<String, byte[]> producer =
                     new KafkaProducer<>(props, new StringSerializer(), serde.encodedSerializer())) {
            for (int i = 0; i < count && failure.get() == null; i++) {
                pending.incrementAndGet();
                producer.send(new ProducerRecord<>(topic, key.apply(i), value.apply(i)), (metadata, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    } else if (acked != null) {
                        acked.advance();
                    }
                    pending.decrementAndGet();
                });
            }
            // flush returns once every record sent has completed, acknowledged or failed
            producer.flush();
        } catch (KafkaException e) {
            failure.compareAndSet(null, e);
        }
        Exception error = failure.get();
        if (error instanceof org.apache.kafka.common.errors.TimeoutException) {
            throw new IllegalStateException("write to " + topic + " not acknowledged within "
                    + props.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG) + " ms: " + error.getMessage(), error);
        }
        if (error != null) {
            throw new IllegalStateException("write to " + topic + " failed: " + error.getMessage(), error);
        }
        if (pending.get() != 0) {
            throw new IllegalStateException("write to " + topic + ": " + pending.get() + " record(s) not acknowledged");
        }
    }
}
