package io.healthmesh.cli.kafka;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntFunction;

import static java.util.Objects.requireNonNull;

/**
 * A compacted topic of Avro values under string keys, as the CLI reads and writes it (targets, group policies,
 * maintenance windows): every current value read to the end, values and tombstones written, each write acknowledged
 * by all in-sync replicas before the command reports success. The topic is never auto-created: a missing one is a
 * clear error naming who creates it.
 *
 * @param <V> the Avro record the topic holds
 */
public final class CompactedTopic<V extends SpecificRecord> {

    /** How long a command waits for the cluster, for a stalled read and for an acknowledgement. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaOptions options;
    private final String topic;
    private final Class<V> type;
    private final String createdBy;

    /**
     * @param createdBy who creates the topic, for the error when it is missing (e.g. {@code an aggregator})
     */
    public CompactedTopic(KafkaOptions options, String topic, Class<V> type, String createdBy) {
        this.options = requireNonNull(options, "options");
        this.topic = requireNonNull(topic, "topic");
        this.type = requireNonNull(type, "type");
        this.createdBy = requireNonNull(createdBy, "createdBy");
    }

    public String name() {
        return topic;
    }

    /** What the topic holds, by key in topic order, and the keys whose values could not be decoded. */
    public record Contents<T>(Map<String, T> values, List<String> undecodable) {
    }

    /** Every current value, by key; fails clearly when the topic or the cluster is missing. */
    public Contents<V> read() {
        return read(Function.identity());
    }

    /**
     * Every current value turned into {@code T} by {@code decode}; a value that cannot be deserialized or decoded is
     * listed as undecodable with its reason, so one bad record does not hide the others.
     */
    public <T> Contents<T> read(Function<? super V, ? extends T> decode) {
        requireExists();
        Map<String, byte[]> raw = CompactedTopicReader.readToEnd(options.clientProperties(), topic, TIMEOUT);
        Map<String, T> out = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        try (AvroSerde<V> serde = AvroSerde.forValues(type, options.serdeConfig())) {
            raw.forEach((key, bytes) -> {
                try {
                    out.put(key, decode.apply(serde.deserializer().deserialize(topic, bytes)));
                } catch (RuntimeException e) {
                    undecodable.add(key + ": " + e.getMessage());
                }
            });
        }
        return new Contents<>(out, undecodable);
    }

    /** Fails with a clear message when the topic does not exist or the cluster cannot be reached. */
    public void requireExists() {
        try (Admin admin = Admin.create(options.clientProperties())) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("topic " + topic + " does not exist on " + options.bootstrapServers()
                        + " (start `healthmesh demo`, or " + createdBy + ", which create the topics)");
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

    /**
     * Writes a tombstone per key once every key is known to the topic; when one is not, writes nothing and fails
     * with {@code missingSummary} and the missing keys, unless {@code ignoreMissing}.
     */
    public void delete(List<String> keys, boolean ignoreMissing, String missingSummary) {
        Set<String> known = read().values().keySet();
        List<String> missing = keys.stream().filter(k -> !known.contains(k)).toList();
        if (!missing.isEmpty() && !ignoreMissing) {
            throw new BadInputException(missingSummary + "; nothing was deleted",
                    missing.stream().map(k -> k + ": not in " + topic).toList());
        }
        write(keys.size(), keys::get, i -> null, null);
    }

    /** Writes each key's value ({@code null}: a tombstone) in order and waits until all are acknowledged. */
    public void write(Map<String, V> records) {
        List<Map.Entry<String, V>> entries = new ArrayList<>(records.entrySet());
        write(entries.size(), i -> entries.get(i).getKey(), i -> entries.get(i).getValue(), null);
    }

    /**
     * Sends {@code count} records, encoding each only when it is sent (a million definitions are never held as
     * Avro records at once); see {@link #send}. {@code acked}, when given, advances once per acknowledged record
     * (from the producer's thread).
     */
    public void write(int count, IntFunction<String> key, IntFunction<V> value, Progress acked) {
        try (AvroSerde<V> serde = AvroSerde.forValues(type, options.serdeConfig())) {
            send(count, key, value, serde.serializer(), acked);
        }
    }

    /**
     * Sends {@code count} values encoded already (the Avro body without its wire header, or null for a tombstone),
     * each getting its header as it is sent, so a value checked for size is written as the bytes that were checked.
     */
    public void writeEncoded(int count, IntFunction<String> key, IntFunction<byte[]> body, Progress acked) {
        try (AvroSerde<V> serde = AvroSerde.forValues(type, options.serdeConfig())) {
            send(count, key, body, serde.encodedSerializer(), acked);
        }
    }

    /**
     * Sends in order through one producer (records of a key keep their order), in large compressed batches; then
     * waits until every one is acknowledged by all in-sync replicas. The first failure is reported; nothing is
     * retried beyond the producer's own retries.
     */
    private <T> void send(int count, IntFunction<String> key, IntFunction<T> value, Serializer<T> serializer,
                          Progress acked) {
        Properties props = options.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT.toMillis()));
        // the topics store gzip (what every client can read): compress here, so the broker does not recompress
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong pending = new AtomicLong();
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(props, new StringSerializer(), serializer)) {
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
