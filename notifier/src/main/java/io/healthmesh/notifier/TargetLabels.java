package io.healthmesh.notifier;

import io.healthmesh.contract.read.ReaderRetry;

import io.healthmesh.core.secret.Redact;
import io.healthmesh.core.retry.Backoff;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.RecordDecodeException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Follows the targets topic (every partition, no group, from the beginning) to know each target's labels: state
 * events carry the group but not the labels, which routes filter on and Alertmanager alerts carry.
 * {@link #caughtUp()} is true once the topic was read to its end as of the start. The reader never gives up: a
 * missing topic, a timeout or a broker or registry error is retried with {@link ReaderRetry}'s backoff until
 * {@link #close()}, and {@link #waitingFor()} says what it waits for meanwhile.
 */
final class TargetLabels implements AutoCloseable {

    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

    private final Duration metadataTimeout;
    private final Map<String, Map<String, String>> labels = new ConcurrentHashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<TargetDefinition> values;
    private final String topic;
    private final NotifierMetrics metrics;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final ReaderRetry retry;
    private final Thread thread;
    /** The end offsets as of the assignment; null until the partitions are assigned. */
    private Map<TopicPartition, Long> end;
    private volatile boolean caughtUp;
    private volatile boolean closed;

    TargetLabels(NotifierConfig config, NotifierMetrics metrics) {
        this(config, metrics, METADATA_TIMEOUT, ReaderRetry.DEFAULT_BACKOFF);
    }

    /** A reader with the given wait for metadata and backoff between failures (tests shorten them). */
    TargetLabels(NotifierConfig config, NotifierMetrics metrics, Duration metadataTimeout, Backoff backoff) {
        this.topic = config.topics().targets();
        this.metrics = metrics;
        this.metadataTimeout = metadataTimeout;
        this.retry = new ReaderRetry("targets reader", backoff, this::pause);
        this.consumer = new KafkaConsumer<>(KafkaProps.reader(config, "targets"));
        this.values = AvroSerde.forValues(TargetDefinition.class, config.serdeConfig()).deserializer();
        metrics.targetsReader(this::waitingFor);
        this.thread = new Thread(this::run, "healthmesh-notifier-targets");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** The target's labels; empty when unknown. */
    Map<String, String> of(String targetId) {
        return labels.getOrDefault(targetId, Map.of());
    }

    boolean caughtUp() {
        return caughtUp;
    }

    /** True until the reader ended, which happens only on {@link #close()}. */
    boolean running() {
        return thread.isAlive();
    }

    /** What the reader waits for (the topic to exist, the broker, the registry), or null while it reads. */
    String waitingFor() {
        return retry.waitingFor();
    }

    private void run() {
        try {
            while (!closed) {
                try {
                    if (end == null) {
                        assign();
                    } else {
                        readOnce();
                    }
                } catch (WakeupException e) {
                    // closing: the loop ends
                } catch (RuntimeException e) {
                    if (!closed && !failed(ReaderRetry.describe(e))) {
                        return;
                    }
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Assigns every partition of the topic from the beginning, or records that the topic does not exist yet. */
    private void assign() {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, metadataTimeout);
        if (infos == null || infos.isEmpty()) {
            failed("waiting for topic " + topic + " (it does not exist yet)");
            return;
        }
        List<TopicPartition> partitions = infos.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        end = consumer.endOffsets(partitions, metadataTimeout);
        retry.succeeded();
    }

    private void readOnce() {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            if (!apply(r)) {
                return; // rewound to the record: read it again after the wait
            }
        }
        retry.succeeded();
        if (!caughtUp && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
            caughtUp = true;
        }
    }

    /** Applies one record; false when the registry could not be reached (the record will be read again). */
    private boolean apply(ConsumerRecord<byte[], byte[]> r) {
        if (r.key() == null) {
            return true;
        }
        String id = new String(r.key(), StandardCharsets.UTF_8);
        if (r.value() == null) {
            labels.remove(id);
            return true;
        }
        try {
            TargetDefinition d = values.deserialize(r.topic(), r.value());
            Map<String, String> l = new TreeMap<>();
            d.getLabels().forEach((k, v) -> l.put(k.toString(), v.toString()));
            labels.put(id, Map.copyOf(l));
        } catch (RecordDecodeException e) {
            metrics.undecodable();
        } catch (SerializationException e) {
            consumer.seek(new TopicPartition(r.topic(), r.partition()), r.offset());
            failed("registry unreachable (" + Redact.userInfo(e.getMessage()) + ")");
            return false;
        }
        return true;
    }

    /** Counts, logs and waits out one failure; false when closed meanwhile. */
    private boolean failed(String reason) {
        metrics.targetsReadFailed();
        return retry.failed(reason);
    }

    private boolean pause(Duration wait) {
        try {
            return !stop.await(wait.toMillis(), TimeUnit.MILLISECONDS) && !closed;
        } catch (InterruptedException e) {
            closed = true;
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        stop.countDown();
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
