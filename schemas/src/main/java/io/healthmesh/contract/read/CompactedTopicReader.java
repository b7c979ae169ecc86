package io.healthmesh.contract.read;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Reads compacted topics whole, on its own thread: every partition from the beginning, without a consumer group,
 * {@code read_committed}, and then follows them. So every replica holds the whole picture and a restart rebuilds it.
 * A topic that is not there yet is waited for (said once in the log). The {@link Handler} decodes and applies each
 * record; it may throw a {@link SerializationException} that is not about the record itself (a registry that cannot
 * be reached): reading then pauses a second and that record is read again. Any other exception from the handler is
 * that record's own fault: it is logged with its place and skipped, so one bad record never stops a follower. A
 * failure of Kafka itself (a broker that does not answer within a call's timeout, a denied topic) is retried by its
 * {@link ReaderLoop} with {@link ReaderRetry}'s backoff from where reading stood: the reader never gives up while it
 * is open, and {@link #waitingFor()} says why it is not reading. After each poll the handler hears whether the
 * reader has caught up: read every partition to its end offset as of its start.
 */
public final class CompactedTopicReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicReader.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration KAFKA_CALL = Duration.ofSeconds(10);
    private static final long LAG_REFRESH_NANOS = Duration.ofSeconds(5).toNanos();

    /** What a reader does with what it reads; called on the reader's thread only. */
    public interface Handler {

        /**
         * One record (a tombstone has a null value).
         *
         * @throws SerializationException to read this record again after a pause (the registry is away)
         */
        void record(ConsumerRecord<byte[], byte[]> record);

        /** After each poll: {@code caughtUp} once every partition was read to its end offset as of the start. */
        void polled(boolean caughtUp);
    }

    private final String name;
    private final List<String> topics;
    private final Handler handler;
    private final ReaderLoop<byte[], byte[]> loop;
    private volatile boolean caughtUp;
    private volatile long lag = -1;
    private volatile long skipped;
    private Map<TopicPartition, Long> startEnds = Map.of();
    private long lagReadAt;

    private CompactedTopicReader(String name, Map<String, ?> kafka, List<String> topics, Handler handler) {
        this.name = requireNonNull(name, "name");
        this.topics = List.copyOf(topics);
        this.handler = requireNonNull(handler, "handler");
        Properties props = withoutGroup(requireNonNull(kafka, "kafka"));
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, name + "-" + UUID.randomUUID().toString().substring(0, 8));
        loop = new ReaderLoop<>(name,
                () -> new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new ReaderLoop.Reading<>() {
                    @Override
                    public void assign(KafkaConsumer<byte[], byte[]> consumer) {
                        assignAll(consumer);
                    }

                    @Override
                    public void poll(KafkaConsumer<byte[], byte[]> consumer) {
                        pollOnce(consumer);
                    }
                }, KAFKA_CALL, ReaderRetry.DEFAULT_BACKOFF);
    }

    /**
     * Starts reading.
     *
     * @param name   the thread's name and the client id's start, e.g. {@code healthmesh-xds-follower}
     * @param kafka  Kafka client settings (bootstrap servers, security); group, offsets and isolation are set here
     * @param topics the compacted topics, read together
     */
    public static CompactedTopicReader start(String name, Map<String, ?> kafka, List<String> topics, Handler handler) {
        CompactedTopicReader reader = new CompactedTopicReader(name, kafka, topics, handler);
        reader.loop.start();
        return reader;
    }

    /**
     * Consumer properties for a reader without a consumer group, as every whole-topic reader of the project uses
     * them: {@code kafka}'s settings without a group id, no commits, no topic auto-creation, from the earliest offset,
     * {@code read_committed}.
     */
    public static Properties withoutGroup(Map<?, ?> kafka) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return props;
    }

    /** True once every partition was read to its end offset as of the start. */
    public boolean caughtUp() {
        return caughtUp;
    }

    /** Records whose handling failed with an exception other than a retried one, and were skipped. */
    public long skippedRecords() {
        return skipped;
    }

    /** Records not read yet, summed over the partitions (refreshed every 5 s); -1 before the first reading. */
    public long lagRecords() {
        return lag;
    }

    /** Why the reader is not reading (a Kafka failure it retries, a topic it waits for), or null while it reads. */
    public String waitingFor() {
        return loop.waitingFor();
    }

    private void assignAll(KafkaConsumer<byte[], byte[]> consumer) {
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topics) {
            all.addAll(loop.partitionsOf(consumer, topic));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        startEnds = consumer.endOffsets(all, KAFKA_CALL);
        LOG.info("{}: reading {} ({} partitions)", name, topics, all.size());
    }

    private void pollOnce(KafkaConsumer<byte[], byte[]> consumer) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(POLL);
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            try {
                handler.record(r);
            } catch (SerializationException e) {
                LOG.warn("{} paused {} ms: {}", name, RETRY.toMillis(), e.getMessage());
                seekBack(consumer, batch, r);
                loop.pauseOrEnd(RETRY);
                return;
            } catch (RuntimeException e) {
                skipped++;
                LOG.error("{}: record {}-{}@{} skipped, its handling failed: {}", name, r.topic(), r.partition(),
                        r.offset(), ReaderRetry.describe(e));
            }
        }
        refreshLag(consumer);
        if (!caughtUp && reachedStartEnds(consumer)) {
            caughtUp = true;
            LOG.info("{}: caught up", name);
        }
        handler.polled(caughtUp);
    }

    private boolean reachedStartEnds(KafkaConsumer<byte[], byte[]> consumer) {
        for (Map.Entry<TopicPartition, Long> e : startEnds.entrySet()) {
            if (consumer.position(e.getKey(), KAFKA_CALL) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void refreshLag(KafkaConsumer<byte[], byte[]> consumer) {
        long now = System.nanoTime();
        if (lag >= 0 && now - lagReadAt < LAG_REFRESH_NANOS) {
            return;
        }
        lagReadAt = now;
        try {
            Map<TopicPartition, Long> ends = consumer.endOffsets(startEnds.keySet(), KAFKA_CALL);
            long behind = 0;
            for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                behind += Math.max(0, e.getValue() - consumer.position(e.getKey(), KAFKA_CALL));
            }
            lag = behind;
        } catch (TimeoutException e) {
            LOG.debug("{} could not read end offsets: {}", name, e.getMessage());
        }
    }

    /** Rewinds every partition of the batch to its first record from {@code from} on. */
    private static void seekBack(KafkaConsumer<byte[], byte[]> consumer, ConsumerRecords<byte[], byte[]> batch,
                                 ConsumerRecord<byte[], byte[]> from) {
        Map<TopicPartition, Long> first = new HashMap<>();
        boolean reached = false;
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            reached |= r == from;
            if (reached) {
                first.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
            }
        }
        first.forEach(consumer::seek);
    }

    /** Stops reading and waits for the thread (bounded). */
    @Override
    public void close() {
        loop.close();
    }
}
