package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.topology.Decoded;
import io.healthmesh.aggregator.topology.GroupPolicyDecoder;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.schema.GroupPolicy;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The group policies (panic thresholds) as recorded in the groups topic, for the replay's fail-open figures. */
final class RecordedPolicies {

    private RecordedPolicies() {
    }

    /**
     * The group policies in force at the end of the range, read from the groups topic as the aggregator reads them
     * (a record it would reject is skipped; a tombstone deletes). No topic (a cluster older than group policies): none.
     */
    static Map<String, PanicThreshold> read(KafkaConsumer<String, byte[]> consumer, Topics topics,
                                            Map<String, Object> serdeConfig, long toMs, Duration timeout) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topics.groups(), timeout);
        if (partitions == null || partitions.isEmpty()) {
            return Map.of();
        }
        Map<String, PanicThreshold> out = new TreeMap<>();
        try (AvroSerde<GroupPolicy> serde = AvroSerde.forValues(GroupPolicy.class, serdeConfig)) {
            GroupPolicyDecoder decoder = new GroupPolicyDecoder(serde.deserializer());
            TopicRange.of(consumer, topics.groups(), Long.MIN_VALUE, toMs, timeout).read(consumer, timeout, r -> {
                if (r.key() == null) {
                    return;
                }
                Decoded<PanicThreshold> t = decoder.threshold(r.topic(), r.key(), r.value());
                if (t.isRejected()) {
                    return; // the aggregator rejects it too and keeps the policy in force
                }
                if (t.value().isNone()) {
                    out.remove(r.key());
                } else {
                    out.put(r.key(), t.value());
                }
            });
        }
        return out;
    }
}
