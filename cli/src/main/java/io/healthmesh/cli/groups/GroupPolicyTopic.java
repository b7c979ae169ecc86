package io.healthmesh.cli.groups;

import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.schema.GroupPolicy;

/** The compacted {@code groups} topic as the CLI sees it: the policies in force by group id. */
final class GroupPolicyTopic {

    private GroupPolicyTopic() {
    }

    static CompactedTopic<GroupPolicy> of(KafkaOptions options) {
        return new CompactedTopic<>(options, options.topics().groups(), GroupPolicy.class, "an aggregator");
    }
}
