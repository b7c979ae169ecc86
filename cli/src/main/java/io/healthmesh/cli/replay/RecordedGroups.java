package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.topology.AggregatorTopology;
import io.healthmesh.aggregator.topology.Decoded;
import io.healthmesh.aggregator.topology.GroupPolicyDecoder;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.health.FailOpenReason;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.replay.GroupCheck;
import io.healthmesh.replay.MaintenanceCheck;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The group side of the recorded topics, for the self-check's {@link GroupCheck}: the aggregator's group events
 * (in domain terms, with the window each carried), the group policies as the aggregator read them, and whether the
 * aggregator's group task had read every membership change its target tasks had committed.
 */
final class RecordedGroups {

    private RecordedGroups() {
    }

    /**
     * What the self-check needs of groups: the events of the groups replayed whole (every target ever defined in them
     * selected; {@code groupsOf} gives each target's group in every definition recorded), each in-range event's window
     * added to {@code groupMarks}, the policies the aggregator had processed, and whether its group task had caught
     * up with its target tasks.
     */
    static GroupCheck.Input input(KafkaConsumer<String, byte[]> consumer, Topics topics,
                                  Map<String, Object> serdeConfig, Map<String, List<String>> groupsOf,
                                  Set<String> selected, TopicRange groupEvents,
                                  List<MaintenanceCheck.GroupMark> groupMarks, AggregatorProgress progress,
                                  Map<TopicPartition, Long> repartitionEnd, long fromMs, long toMs, Duration timeout) {
        Set<String> whole = GroupCheck.wholeGroups(groupsOf, selected);
        Map<String, List<GroupCheck.GroupEvent>> byGroup = new TreeMap<>();
        try (AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, serdeConfig)) {
            groupEvents.read(consumer, timeout, r -> {
                if (r.key() == null || !whole.contains(r.key())) {
                    return;
                }
                try {
                    GroupHealth health = r.value() == null ? null
                            : serde.deserializer().deserialize(r.topic(), r.value());
                    byGroup.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(event(r, health));
                    if (health != null && r.timestamp() >= fromMs) {
                        groupMarks.add(mark(r, health));
                    }
                } catch (RuntimeException e) {
                    // an event replay cannot read is left out; the self-check then names the difference it makes
                }
            });
        }
        return new GroupCheck.Input(whole, byGroup, policies(consumer, topics, serdeConfig,
                progress, toMs, timeout), groupTaskCaughtUp(consumer, progress, repartitionEnd,
                timeout));
    }

    /** One record of the group state topic; {@code health == null} is a tombstone. */
    static GroupCheck.GroupEvent event(ConsumerRecord<String, byte[]> r, GroupHealth health) {
        if (health == null) {
            return new GroupCheck.GroupEvent(r.key(), r.timestamp(), r.offset(), true, null);
        }
        return new GroupCheck.GroupEvent(r.key(), r.timestamp(), r.offset(), false, reason(health));
    }

    /** The window a group event carried. */
    static MaintenanceCheck.GroupMark mark(ConsumerRecord<String, byte[]> r, GroupHealth health) {
        return new MaintenanceCheck.GroupMark(r.key(), r.offset(), health.getUpdatedAtMs(),
                health.getMaintenance() == null ? null : health.getMaintenance().getId());
    }

    /**
     * Why the event says the group fails open: null when it does not; an event of a writer older than the reason
     * field means {@code NO_HEALTHY_MEMBER} (the schema's rule), a reason this reader does not know is kept as
     * unknown and never matches.
     */
    private static FailOpenReason reason(GroupHealth health) {
        if (!health.getFailOpen()) {
            return null;
        }
        String reason = health.getFailOpenReason();
        if (reason == null) {
            return FailOpenReason.NO_HEALTHY_MEMBER;
        }
        try {
            return FailOpenReason.valueOf(reason);
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("failOpenReason: " + reason + " (expected: one of "
                    + java.util.Arrays.toString(FailOpenReason.values()) + ")");
        }
    }

    /**
     * The groups topic's records in {@code range} as the aggregator decodes them (a record it rejects is left out; a
     * tombstone or an empty policy is {@link PanicThreshold#NONE}). No topic: none.
     */
    static List<GroupCheck.PolicyRecord> policies(KafkaConsumer<String, byte[]> consumer, Topics topics,
                                                  Map<String, Object> serdeConfig, AggregatorProgress progress,
                                                  long toMs, Duration timeout) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topics.groups(), timeout);
        if (partitions == null || partitions.isEmpty()) {
            return List.of();
        }
        List<GroupCheck.PolicyRecord> out = new ArrayList<>();
        try (AvroSerde<GroupPolicy> serde = AvroSerde.forValues(GroupPolicy.class, serdeConfig)) {
            GroupPolicyDecoder decoder = new GroupPolicyDecoder(serde.deserializer());
            progress.bound(TopicRange.of(consumer, topics.groups(), Long.MIN_VALUE, toMs, timeout))
                    .read(consumer, timeout, r -> {
                        if (r.key() == null) {
                            return;
                        }
                        Decoded<PanicThreshold> t = decoder.threshold(r.topic(), r.key(), r.value());
                        if (!t.isRejected()) {
                            out.add(new GroupCheck.PolicyRecord(r.timestamp(), r.key(), t.value()));
                        }
                    });
        }
        return out;
    }

    /** The aggregator's repartition by group: the input of its group task. */
    static String repartitionTopic(String applicationId) {
        return applicationId + "-" + AggregatorTopology.GROUP_REPARTITION + "-repartition";
    }

    /** The end (last stable) offsets of the repartition topic; empty when it does not exist. */
    static Map<TopicPartition, Long> repartitionEnd(KafkaConsumer<String, byte[]> consumer, String applicationId,
                                                    Duration timeout) {
        String topic = repartitionTopic(applicationId);
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            return Map.of();
        }
        return consumer.endOffsets(infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList(),
                timeout);
    }

    /**
     * True when the aggregator's group task had read every membership change below {@code end} (the repartition's end
     * when {@code progress} was taken): no committed record between its committed offset and that end. Unsure (the
     * records there were purged since, so it read them after) counts as not caught up.
     */
    static boolean groupTaskCaughtUp(KafkaConsumer<String, byte[]> consumer, AggregatorProgress progress,
                                     Map<TopicPartition, Long> end, Duration timeout) {
        if (progress.unknown()) {
            return true; // nothing committed: everything up to --to is compared, as for targets
        }
        List<TopicPartition> behind = new ArrayList<>();
        end.forEach((tp, e) -> {
            if (e > progress.committed().getOrDefault(tp, 0L)) {
                behind.add(tp);
            }
        });
        if (behind.isEmpty()) {
            return true;
        }
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(behind, timeout);
        for (TopicPartition tp : behind) {
            if (beginning.get(tp) > progress.committed().getOrDefault(tp, 0L)) {
                return false;
            }
        }
        // between committed and end there may be only transaction markers: read what is there
        consumer.assign(behind);
        behind.forEach(tp -> consumer.seek(tp, progress.committed().getOrDefault(tp, 0L)));
        Instant deadline = Instant.now().plus(timeout);
        try {
            while (behind.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (Instant.now().isAfter(deadline)) {
                    return false;
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        return false;
                    }
                }
            }
            return true;
        } finally {
            consumer.assign(List.of());
        }
    }
}
