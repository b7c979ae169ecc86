package io.healthmesh.contract;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicSetupIT {

    // schemas sits below testkit (whose extension needs the registry built on schemas): a broker of its own.
    private static EmbeddedKafka broker;
    private static Admin admin;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    @AfterAll
    static void stopBroker() {
        admin.close();
        broker.close();
    }

    @Test
    void createsEveryTopicAsDesignedAndIsIdempotent() throws Exception {
        Topics topics = new Topics("setup-" + UUID.randomUUID() + ".");

        TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());
        TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());

        var names = List.of(topics.targets(), topics.probeResults(), topics.healthState(), topics.groupState(),
                topics.rejected(), topics.groups(), topics.maintenance());
        var descriptions = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
        assertThat(descriptions.get(topics.targets()).partitions()).hasSize(3);
        assertThat(descriptions.get(topics.probeResults()).partitions()).hasSize(3);
        assertThat(descriptions.get(topics.healthState()).partitions()).hasSize(3);
        assertThat(cleanupPolicy(topics.targets())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(topics.healthState())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(topics.groupState())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(cleanupPolicy(topics.groups())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(descriptions.get(topics.groups()).partitions()).hasSize(3);
        assertThat(cleanupPolicy(topics.maintenance())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(descriptions.get(topics.maintenance()).partitions()).hasSize(1);
        assertThat(cleanupPolicy(topics.probeResults())).isEqualTo(TopicConfig.CLEANUP_POLICY_DELETE);
        for (String readByUsers : List.of(topics.targets(), topics.healthState(), topics.groupState(),
                topics.rejected(), topics.groups(), topics.maintenance())) {
            assertThat(config(readByUsers, TopicConfig.COMPRESSION_TYPE_CONFIG)).as(readByUsers).isEqualTo("gzip");
        }
        assertThat(config(topics.probeResults(), TopicConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("producer");
        // the workers' announced listeners: compacted, one partition, gzip, hourly segments
        assertThat(admin.describeTopics(List.of(topics.endpoints())).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topics.endpoints()).partitions()).hasSize(1);
        assertThat(cleanupPolicy(topics.endpoints())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(config(topics.endpoints(), TopicConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("gzip");
        assertThat(config(topics.endpoints(), TopicConfig.SEGMENT_MS_CONFIG)).isEqualTo("3600000");
    }

    @Test
    void switchesUserFacingTopicsLeftAtTheDefaultCodecToGzipAndLeavesAChosenOneAlone() throws Exception {
        Topics topics = new Topics("codec-" + UUID.randomUUID() + ".");
        admin.createTopics(List.of(
                new NewTopic(topics.healthState(), 3, (short) 1).configs(Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)),
                new NewTopic(topics.groupState(), 3, (short) 1).configs(Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                        TopicConfig.COMPRESSION_TYPE_CONFIG, "zstd")))).all().get(30, TimeUnit.SECONDS);

        TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());

        assertThat(config(topics.healthState(), TopicConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("gzip");
        assertThat(config(topics.groupState(), TopicConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("zstd");
    }

    @Test
    void refusesToCreateSingleCopyTopicsUnlessToldItIsADemo() throws Exception {
        Topics topics = new Topics("single-" + UUID.randomUUID() + ".");

        assertThatThrownBy(() -> TopicSetup.ensure(admin, topics, 3, new TopicReplication((short) 1, false)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to create " + topics.targets())
                .hasMessageContaining(TopicReplication.SINGLE_COPY_SETTING + "=true");
        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).noneMatch(n -> n.startsWith(topics.prefix()));

        TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());
        assertThat(config(topics.healthState(), TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)).isEqualTo("1");
        // existing topics are checked, not created: nothing to refuse
        TopicSetup.ensure(admin, topics, 3, new TopicReplication((short) 1, false));
    }

    @Test
    void refusesTopicsThatDisagree() throws Exception {
        Topics topics = new Topics("bad-" + UUID.randomUUID() + ".");
        admin.createTopics(List.of(new NewTopic(topics.probeResults(), 2, (short) 1),
                new NewTopic(topics.healthState(), 3, (short) 1))).all().get(30, TimeUnit.SECONDS);

        assertThatThrownBy(() -> TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(topics.probeResults() + ": 2 partitions (expected: 3)")
                .hasMessageContaining(topics.healthState() + ": cleanup.policy=delete (expected: compact)");
    }

    private static String cleanupPolicy(String topic) throws Exception {
        return config(topic, TopicConfig.CLEANUP_POLICY_CONFIG);
    }

    private static String config(String topic, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, org.apache.kafka.clients.admin.Config> configs =
                admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS);
        ConfigEntry entry = configs.get(resource).get(key);
        return entry.value();
    }
}
