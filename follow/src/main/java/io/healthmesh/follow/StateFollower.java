package io.healthmesh.follow;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.read.CompactedTopicReader;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Follows the compacted state topics ({@code targets}, {@code health-state}, {@code group-state}) and keeps a
 * {@link StateBook} of them, through a {@link CompactedTopicReader}: every partition from the beginning, without a
 * consumer group, with {@code read_committed} (the aggregator writes in transactions). So every replica of a
 * data-plane role holds the whole picture and a restart rebuilds it before acting.
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

    private final Topics topics;
    private final StateListener listener;
    private final AvroSerde<TargetDefinition> definitionSerde;
    private final AvroSerde<TargetHealth> healthSerde;
    private final AvroSerde<GroupHealth> groupSerde;
    private final StateBook book = new StateBook();
    private final Counter records;
    private final Counter decodeFailures;
    private final Counter listenerFailures;
    private volatile boolean told;
    private volatile FollowedState state = FollowedState.EMPTY;
    private CompactedTopicReader reader;

    private StateFollower(Map<String, ?> serdeConfig, Topics topics, StateListener listener,
                          PrometheusRegistry metrics, String metricPrefix) {
        this.topics = requireNonNull(topics, "topics");
        this.listener = requireNonNull(listener, "listener");
        requireNonNull(metricPrefix, "metricPrefix");
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
                .callback(cb -> cb.call(lagRecords())).register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_groups_fail_open")
                .help("Groups whose latest event fails open (every member served), by the aggregator's reason.")
                .labelNames("reason")
                .callback(cb -> failOpenByReason().forEach((reason, n) -> cb.call(n, reason))).register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_caught_up")
                .help("1 once the state topics were read to their end as of the start, else 0.")
                .callback(cb -> cb.call(caughtUp() ? 1 : 0)).register(metrics);
        GaugeWithCallback.builder().name(metricPrefix + "_follow_kept_last_served")
                .help("Times a group's served set would have been empty and its last served members were kept.")
                .callback(cb -> cb.call(book.keptLastEpisodes())).register(metrics);
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
        StateFollower follower = new StateFollower(serdeConfig, topics, listener, metrics, metricPrefix);
        follower.reader = CompactedTopicReader.start(metricPrefix.replace('_', '-') + "-follower", kafka,
                List.of(topics.targets(), topics.healthState(), topics.groupState()), follower.new Apply());
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
        return told;
    }

    /** The latest state; empty until caught up. */
    public FollowedState state() {
        return state;
    }

    /** Records not read yet, summed over the partitions (refreshed every 5 s); -1 before the first reading. */
    public long lagRecords() {
        CompactedTopicReader r = reader;
        return r == null ? -1 : r.lagRecords();
    }

    /** What the reader does with each record and after each poll, on its thread. */
    private final class Apply implements CompactedTopicReader.Handler {

        @Override
        public void record(ConsumerRecord<byte[], byte[]> r) {
            if (r.key() == null) {
                return;
            }
            try {
                apply(r);
                records.inc();
            } catch (RecordDecodeException e) {
                decodeFailures.inc();
                LOG.debug("state follower skips {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            }
        }

        @Override
        public void polled(boolean caughtUp) {
            if (!caughtUp) {
                return;
            }
            StateBook.Update update = book.update();
            FollowedState before = state;
            state = update.state();
            if (!told) {
                told = true;
                LOG.info("state follower caught up: {} groups", state.groups().size());
                tell(state, state.groups().keySet());
            } else if (!update.changedGroups().isEmpty()) {
                logFailOpenChanges(before, state, update.changedGroups());
                tell(state, update.changedGroups());
            }
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> r) {
        String topic = r.topic();
        String key = new String(r.key(), StandardCharsets.UTF_8);
        byte[] value = r.value();
        if (topic.equals(topics.targets())) {
            book.applyTarget(key, value == null ? null : definitionSerde.deserializer().deserialize(topic, value));
        } else if (topic.equals(topics.healthState())) {
            book.applyHealth(key, value == null ? null : healthSerde.deserializer().deserialize(topic, value));
        } else {
            book.applyGroup(key, value == null ? null : groupSerde.deserializer().deserialize(topic, value));
        }
    }

    /** Groups failing open per reason (an event without a reason counts as {@code unknown}); both known reasons kept. */
    private Map<String, Integer> failOpenByReason() {
        Map<String, Integer> counts = new TreeMap<>(Map.of("NO_HEALTHY_MEMBER", 0, "BELOW_MIN_HEALTHY", 0));
        for (GroupView g : state.groups().values()) {
            if (g.failOpen()) {
                counts.merge(g.failOpenReason() == null ? "unknown" : g.failOpenReason(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** Logs each group that starts or stops failing open, with the aggregator's reason, once per change. */
    private void logFailOpenChanges(FollowedState before, FollowedState after, Set<String> changed) {
        for (String id : changed) {
            GroupView was = before.groups().get(id);
            GroupView now = after.groups().get(id);
            boolean wasOpen = was != null && was.failOpen();
            boolean isOpen = now != null && now.failOpen();
            if (isOpen && (!wasOpen || !java.util.Objects.equals(was.failOpenReason(), now.failOpenReason()))) {
                LOG.warn("group {} fails open ({}): every member is served", id,
                        now.failOpenReason() == null ? "no reason given" : now.failOpenReason());
            } else if (wasOpen && !isOpen) {
                LOG.info("group {} no longer fails open", id);
            }
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

    /** Stops following and waits for the reader's thread (bounded). */
    @Override
    public void close() {
        CompactedTopicReader r = reader;
        if (r != null) {
            r.close();
        }
        definitionSerde.close();
        healthSerde.close();
        groupSerde.close();
    }
}
