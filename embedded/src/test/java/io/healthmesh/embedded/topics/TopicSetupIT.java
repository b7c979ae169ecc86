package io.healthmesh.embedded.topics;

import io.healthmesh.embedded.KafkaExtension;
import io.healthmesh.embedded.TestKafka;
import io.healthmesh.schemas.TopicSetup;
import io.healthmesh.schemas.Topics;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(KafkaExtension.class)
class TopicSetupIT {

    @Test
    void createsEveryTopicAsDesignedAndIsIdempotent(TestKafka kafka) throws Exception {
        Topics topics = new Topics(kafka.uniqueTopic("setup") + ".");

        TopicSetup.ensure(kafka.admin(), topics, 3, (short) 1);
        TopicSetup.ensure(kafka.admin(), topics, 3, (short) 1);

        var names = List.of(topics.targets(), topics.probeResults(), topics.healthState(), topics.groupState(),
                topics.rejected());
        var descriptions = kafka.admin().describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
        assertThat(descriptions.get(topics.targets()).partitions()).hasSize(3);
        assertThat(descriptions.get(topics.probeResults()).partitions()).hasSize(3);
        assertThat(descriptions.get(topics.healthState()).partitions()).hasSize(3);
        assertThat(cleanupPolicy(kafka, topics.targets())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(kafka, topics.healthState())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(kafka, topics.groupState())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(kafka, topics.probeResults())).isEqualTo(TopicConfig.CLEANUP_POLICY_DELETE);
    }

    @Test
    void refusesTopicsThatDisagree(TestKafka kafka) {
        Topics topics = new Topics(kafka.uniqueTopic("bad") + ".");
        kafka.createTopic(topics.probeResults(), 2, false);
        kafka.createTopic(topics.healthState(), 3, false);

        assertThatThrownBy(() -> TopicSetup.ensure(kafka.admin(), topics, 3, (short) 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(topics.probeResults() + ": 2 partitions (expected: 3)")
                .hasMessageContaining(topics.healthState() + ": cleanup.policy=delete (expected: compact)");
    }

    private static String cleanupPolicy(TestKafka kafka, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, org.apache.kafka.clients.admin.Config> configs =
                kafka.admin().describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS);
        ConfigEntry entry = configs.get(resource).get(TopicConfig.CLEANUP_POLICY_CONFIG);
        return entry.value();
    }
}
