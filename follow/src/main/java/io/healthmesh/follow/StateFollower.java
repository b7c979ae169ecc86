package io.healthmesh.follow;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * Follows the compacted state topics ({@code targets}, {@code health-state}, {@code group-state}) on its own thread
 * and keeps a {@link StateBook} of them: every partition from the beginning, without a consumer group, with
 * {@code read_committed} (the aggregator writes in transactions). So every replica of a data-plane role holds the
 * whole picture and a restart rebuilds it before acting.
 * <p>
 * It tells its {@link StateListener} nothing until it has caught up (every partition read to its end offset as of
 * its start): a role that acted on a partial read would withdraw members that simply had not been read yet. A record
 * that cannot be decoded is skipped and counted; a registry that cannot be reached pauses reading for a second and
 * the record is read again.
 * <p>
 * Metrics, under the given prefix: {@code _follow_lag_records}, {@code _follow_caught_up}, {@code _follow_records},
 * {@code _follow_decode_failures}, {@code _follow_listener_failures}, {@code _follow_kept_last_served}.
 */
public final class StateFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StateFollower.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration KAFKA_CALL = Duration.ofSeconds(10);
    private static final long LAG_REFRESH_NANOS = Duration.ofSeconds(5).toNanos();

    private final Properties props;
    private final Topics topics;
    private final StateListener listener;
    private final AvroSerde<TargetDefinition> definitionSerde;
    private final AvroSerde<TargetHealth> healthSerde;
    private final AvroSerde<GroupHealth> groupSerde;
    private final StateBook book = new StateBook();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Counter records;
    private final Counter decodeFailures;
    private final Counter listenerFailures;
    private final Thread thread;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean caughtUp;
    private volatile FollowedState state = FollowedState.EMPTY;
    private volatile long lag = -1;
    private Map<TopicPartition, Long> startEnds = Map.of();
    private Map<TopicPartition, Long> ends = Map.of();
    private long lagReadAt;

    private StateFollower(Map<String, String> kafka, Map<String, ?> serdeConfig, Topics topics,
                          StateListener listener, PrometheusRegistry metrics, String metricPrefix) {
        this.topics = requireNonNull(topics, "topics");
        this.listener = requireNonNull(listener, "listener");
        requireNonNull(metricPrefix, "metricPrefix");
        props = new Properties();
        props.putAll(requireNonNull(kafka, "kafka"));
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG,
                metricPrefix.replace('_', '-') + "-follower-" + UUID.randomUUID().toString().substring(0, 8));
        definitionSerde = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
        healthSerde = AvroSerde.forValues(TargetHealth.class, serdeConfig);
        groupSerde = AvroSerde.forValues(GroupHealth.class, serdeConfig);
        requireNonNull(metrics, "metrics");
        records = Counter.builder().name(metricPrefix + "_follow_records")
                .help("State-topic records read by the follower.").register(metrics);
        decodeFailures = Counter.builder().name(metricPrefix + "_follow_decode_failures")
                .help("State-topic records skipped because they could not be decoded.").register(metrics);
        listenerFailures = Counter.builder().name(metricPrefix + "_follow_listener_failures")
                .help("Times the role's handling of a state change threw.").register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_lag_records")
                .help("Records of the state topics not read yet (refreshed every 5 s; -1 before the first reading).")
                .callback(cb -> cb.call(lag)).register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_caught_up")
                .help("1 once the state topics were read to their end as of the start, else 0.")
                .callback(cb -> cb.call(caughtUp ? 1 : 0)).register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_kept_last_served")
                .help("Times a group's served set would have been empty and its last served members were kept.")
                .callback(cb -> cb.call(book.keptLastEpisodes())).register(metrics);
        thread = new Thread(this::run, metricPrefix.replace('_', '-') + "-follower");
        thread.setDaemon(true);
    }

    /**
     * Starts following.
     *
     * @param kafka        Kafka client settings (bootstrap servers, security); group, offsets and isolation are set here
     * @param serdeConfig  the Avro serde's settings (registry URL and its credentials)
     * @param metricPrefix e.g. {@code healthmesh_xds}
     */
    public static StateFollower start(Map<String, String> kafka, Map<String, ?> serdeConfig, Topics topics,
                                      StateListener listener, PrometheusRegistry metrics, String metricPrefix) {
        StateFollower follower = new StateFollower(kafka, serdeConfig, topics, listener, metrics, metricPrefix);
        follower.thread.start();
        return follower;
    }

    /** Starts following the state topics of {@code source}. */
    public static StateFollower start(StateSource source, StateListener listener, PrometheusRegistry metrics,
                                      String metricPrefix) {
        return start(source.consumerSettings(), source.serdeConfig(), source.topics(), listener, metrics,
                metricPrefix);
    }

    /** True once every partition was read to its end as of the start: the role may act (its {@code /readyz}). */
    public boolean caughtUp() {
        return caughtUp;
    }

    /** The latest state; empty until caught up. */
    public FollowedState state() {
        return state;
    }

    /** Records not read yet, summed over the partitions (refreshed every 5 s); -1 before the first reading. */
    public long lagRecords() {
        return lag;
    }

    private void run() {
        try {
            consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
            if (closed.get()) {
                return;
            }
            List<TopicPartition> all = new ArrayList<>();
            all.addAll(partitionsOf(topics.targets()));
            all.addAll(partitionsOf(topics.healthState()));
            all.addAll(partitionsOf(topics.groupState()));
            consumer.assign(all);
            consumer.seekToBeginning(all);
            startEnds = consumer.endOffsets(all, KAFKA_CALL);
            ends = startEnds;
            LOG.info("following {}, {} and {} ({} partitions)", topics.targets(), topics.healthState(),
                    topics.groupState(), all.size());
            while (!closed.get()) {
                poll();
            }
        } catch (WakeupException e) {
            if (!closed.get()) {
                LOG.error("state follower woken up unexpectedly; the data plane stops following", e);
            }
        } catch (RuntimeException e) {
            LOG.error("state follower failed; the data plane stops following", e);
        } finally {
            KafkaConsumer<String, byte[]> c = consumer;
            if (c != null) {
                try {
                    c.close(Duration.ofSeconds(5));
                } catch (RuntimeException e) {
                    LOG.debug("state follower: closing its consumer failed", e);
                }
            }
        }
    }

    private List<TopicPartition> partitionsOf(String topic) {
        while (!closed.get()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, KAFKA_CALL);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            }
            LOG.info("state follower: topic {} not there yet, waiting", topic);
            pause();
        }
        throw new WakeupException();
    }

    private void poll() {
        ConsumerRecords<String, byte[]> batch = consumer.poll(POLL);
        for (ConsumerRecord<String, byte[]> r : batch) {
            if (r.key() == null) {
                continue;
            }
            try {
                apply(r);
                records.inc();
            } catch (RecordDecodeException e) {
                decodeFailures.inc();
                LOG.debug("state follower skips {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            } catch (SerializationException e) {
                LOG.warn("state follower paused {} ms: {}", RETRY.toMillis(), e.getMessage());
                seekBack(batch, r);
                pause();
                return;
            }
        }
        refreshLag();
        if (!caughtUp) {
            if (!reachedStartEnds()) {
                return;
            }
            StateBook.Update first = book.update();
            state = first.state();
            caughtUp = true;
            LOG.info("state follower caught up: {} groups", state.groups().size());
            tell(state, state.groups().keySet());
            return;
        }
        StateBook.Update update = book.update();
        state = update.state();
        if (!update.changedGroups().isEmpty()) {
            tell(state, update.changedGroups());
        }
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        String topic = r.topic();
        byte[] value = r.value();
        if (topic.equals(topics.targets())) {
            book.applyTarget(r.key(), value == null ? null : definitionSerde.deserializer().deserialize(topic, value));
        } else if (topic.equals(topics.healthState())) {
            book.applyHealth(r.key(), value == null ? null : healthSerde.deserializer().deserialize(topic, value));
        } else {
            book.applyGroup(r.key(), value == null ? null : groupSerde.deserializer().deserialize(topic, value));
        }
    }

    private boolean reachedStartEnds() {
        for (Map.Entry<TopicPartition, Long> e : startEnds.entrySet()) {
            if (consumer.position(e.getKey(), KAFKA_CALL) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void refreshLag() {
        long now = System.nanoTime();
        if (lag >= 0 && now - lagReadAt < LAG_REFRESH_NANOS) {
            return;
        }
        lagReadAt = now;
        try {
            ends = consumer.endOffsets(startEnds.keySet(), KAFKA_CALL);
            long behind = 0;
            for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                behind += Math.max(0, e.getValue() - consumer.position(e.getKey(), KAFKA_CALL));
            }
            lag = behind;
        } catch (TimeoutException e) {
            LOG.debug("state follower could not read end offsets: {}", e.getMessage());
        }
    }

    private void tell(FollowedState s, Set<String> changed) {
        try {
            listener.onState(s, changed);
        } catch (RuntimeException e) {
            listenerFailures.inc();
            LOG.error("handling a state change of {} groups failed", changed.size(), e);
        }
    }

    /** Rewinds every partition of the batch to its first record from {@code from} on. */
    private void seekBack(ConsumerRecords<String, byte[]> batch, ConsumerRecord<String, byte[]> from) {
        Map<TopicPartition, Long> first = new HashMap<>();
        boolean reached = false;
        for (ConsumerRecord<String, byte[]> r : batch) {
            reached |= r == from;
            if (reached) {
                first.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
            }
        }
        first.forEach(consumer::seek);
    }

    private void pause() {
        try {
            if (closing.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new WakeupException();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed.set(true);
            throw new WakeupException();
        }
    }

    /** Stops following and waits for the thread (bounded). */
    @Override
    public void close() {
        closed.set(true);
        KafkaConsumer<String, byte[]> c = consumer;
        closing.countDown();
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        definitionSerde.close();
        healthSerde.close();
        groupSerde.close();
    }
}
