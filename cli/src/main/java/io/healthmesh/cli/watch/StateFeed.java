package io.healthmesh.cli.watch;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Follows the health-state and group-state topics: first the state already there (both compacted topics read to
 * their end, latest value per key, delivered as {@code current} events followed by {@link StateEvent.CaughtUp}),
 * then every new record as it arrives. Used by {@code watch} and by {@code demo}, so both print the same lines.
 * Reads without a consumer group. {@link #close()} from any thread stops {@link #run}, which releases the consumer.
 */
public final class StateFeed implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private final Properties clientProps;
    private final Topics topics;
    private final AvroSerde<TargetHealth> targetSerde;
    private final AvroSerde<GroupHealth> groupSerde;
    private final Map<String, GroupHealth> groups = new HashMap<>();
    private final Map<String, TargetHealth> targetStates = new HashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile KafkaConsumer<String, byte[]> consumer;

    public StateFeed(Properties clientProps, Map<String, Object> serdeConfig, Topics topics) {
        this.topics = requireNonNull(topics, "topics");
        this.clientProps = CompactedTopicReader.consumerProperties(clientProps);
        this.targetSerde = AvroSerde.forValues(TargetHealth.class, serdeConfig);
        this.groupSerde = AvroSerde.forValues(GroupHealth.class, serdeConfig);
    }

    /**
     * Delivers events to {@code sink} until {@link #close()} or until {@code until} has passed
     * ({@code null} = no limit).
     *
     * @throws IllegalStateException when a state topic does not exist
     */
    public void run(Consumer<StateEvent> sink, Instant until) {
        consumer = new KafkaConsumer<>(clientProps, new StringDeserializer(), new ByteArrayDeserializer());
        try {
            if (closed.get()) {
                return; // closed before the consumer existed: its wakeup() could not reach it
            }
            List<TopicPartition> partitions = new ArrayList<>();
            partitions.addAll(partitionsOf(topics.healthState()));
            partitions.addAll(partitionsOf(topics.groupState()));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, METADATA_TIMEOUT);
            Map<String, StateEvent> snapshot = new LinkedHashMap<>();
            boolean live = false;
            while (!closed.get() && (until == null || Instant.now().isBefore(until))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                    StateEvent event = decode(r, !live);
                    if (event == null) {
                        continue;
                    }
                    if (live) {
                        sink.accept(event);
                    } else {
                        remember(snapshot, r, event);
                    }
                }
                if (!live && CompactedTopicReader.caughtUp(consumer, end)) {
                    live = true;
                    int targets = 0;
                    for (StateEvent e : snapshot.values()) {
                        targets += e instanceof StateEvent.Target ? 1 : 0;
                        if (!(e instanceof StateEvent.Removed)) {
                            sink.accept(e);
                        }
                    }
                    sink.accept(new StateEvent.CaughtUp(targets, groups.size()));
                }
            }
        } catch (WakeupException e) {
            if (!closed.get()) {
                throw e;
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
            targetSerde.close();
            groupSerde.close();
        }
    }

    private List<TopicPartition> partitionsOf(String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist (is the aggregator running?)");
        }
        return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    }

    private static void remember(Map<String, StateEvent> snapshot, ConsumerRecord<String, byte[]> r,
                                 StateEvent event) {
        String key = r.topic() + "/" + r.key();
        if (event instanceof StateEvent.Removed) {
            snapshot.remove(key);
        } else if (!(event instanceof StateEvent.Undecodable)) {
            snapshot.put(key, event);
        }
    }

    private StateEvent decode(ConsumerRecord<String, byte[]> r, boolean current) {
        if (r.key() == null) {
            return null;
        }
        boolean isTarget = r.topic().equals(topics.healthState());
        if (r.value() == null) {
            (isTarget ? targetStates : groups).remove(r.key());
            return new StateEvent.Removed(isTarget ? StateEvent.Kind.TARGET : StateEvent.Kind.GROUP, r.key(),
                    current);
        }
        try {
            if (isTarget) {
                TargetHealth now = targetSerde.deserializer().deserialize(r.topic(), r.value());
                return new StateEvent.Target(now, targetStates.put(r.key(), now), current);
            }
            GroupHealth now = groupSerde.deserializer().deserialize(r.topic(), r.value());
            GroupHealth previous = groups.put(r.key(), now);
            return new StateEvent.Group(now, previous, current);
        } catch (RuntimeException e) {
            return new StateEvent.Undecodable(r.topic(), r.key(), e.getMessage());
        }
    }

    /** Stops {@link #run}, from any thread. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            KafkaConsumer<String, byte[]> running = consumer;
            if (running != null) {
                running.wakeup();
            }
        }
    }
}
