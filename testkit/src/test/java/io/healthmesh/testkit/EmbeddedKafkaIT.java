package io.healthmesh.testkit;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.embedded.FreePorts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.healthmesh.testkit.TopicReads.KeyValue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

    private static final long TIMEOUT_S = 30;

    @Test
    void startsInSecondsAndCarriesRecords() throws Exception {
        long startedAt = System.nanoTime();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            Duration startup = Duration.ofNanos(System.nanoTime() - startedAt);
            assertThat(startup).isLessThan(Duration.ofSeconds(30));
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");

            createTopic(kafka, "greetings", 3, Map.of());
            List<KeyValue> sent = List.of(new KeyValue("a", "1"), new KeyValue("b", "2"), new KeyValue("c", "3"));
            TopicReads.produce(kafka.bootstrapServers(), "greetings", sent);

            assertThat(TopicReads.readAll(kafka.bootstrapServers(), "greetings")).containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    @Test
    void temporaryDataDirIsDeletedAtCloseAndCloseIsIdempotent() {
        EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        Path dir = kafka.dataDir();
        assertThat(dir.resolve("meta.properties")).isRegularFile(); // written by the KRaft format step

        kafka.close();
        kafka.close();

        assertThat(dir).doesNotExist();
    }

    @Test
    void compactedTopicKeepsOnlyTheLatestValuePerKey() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String topic = "latest-per-key";
            // Segments roll after 100 ms and any dirt is worth cleaning, so the cleaner acts within seconds.
            createTopic(kafka, topic, 1, Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.SEGMENT_MS_CONFIG, "100",
                    TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.01",
                    TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0"));
            assertThat(topicConfig(kafka, topic).get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                    .isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);

            List<KeyValue> versions = new ArrayList<>();
            for (int v = 1; v <= 20; v++) {
                versions.add(new KeyValue("target-1", "v" + v));
            }
            TopicReads.produce(kafka.bootstrapServers(), topic, versions);

            // Each appended record after segment.ms rolls the segment holding the versions; the cleaner then
            // compacts it. Poll until only the latest version of target-1 is left.
            Instant deadline = Instant.now().plusSeconds(TIMEOUT_S);
            List<String> target1Values;
            int tick = 0;
            do {
                assertThat(Instant.now()).as("compaction within %s s", TIMEOUT_S).isBefore(deadline);
                TopicReads.produce(kafka.bootstrapServers(), topic, List.of(new KeyValue("tick", Integer.toString(tick++))));
                target1Values = TopicReads.readAll(kafka.bootstrapServers(), topic).stream()
                        .filter(kv -> kv.key().equals("target-1"))
                        .map(KeyValue::value)
                        .toList();
            } while (target1Values.size() > 1);

            assertThat(target1Values).containsExactly("v20");
        }
    }

    @Test
    void restartOnTheSameDirectoryKeepsTopicsAndRecords(@TempDir Path dir) throws Exception {
        EmbeddedKafkaConfig cfg = EmbeddedKafkaConfig.defaults().withDataDir(dir.resolve("kafka"));
        List<KeyValue> sent = List.of(new KeyValue("g1", "healthy"), new KeyValue("g2", "unhealthy"));
        String clusterId;
        try (EmbeddedKafka first = EmbeddedKafka.start(cfg)) {
            createTopic(first, "durable", 2, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            TopicReads.produce(first.bootstrapServers(), "durable", sent);
            clusterId = clusterId(first);
        }
        assertThat(dir.resolve("kafka")).isDirectory();

        try (EmbeddedKafka second = EmbeddedKafka.start(cfg)) {
            assertThat(clusterId(second)).isEqualTo(clusterId);
            try (Admin admin = admin(second)) {
                assertThat(admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS)).contains("durable");
                assertThat(admin.describeTopics(Set.of("durable")).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS)
                        .get("durable").partitions()).hasSize(2);
            }
            assertThat(topicConfig(second, "durable").get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                    .isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
            assertThat(TopicReads.readAll(second.bootstrapServers(), "durable")).containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    @Test
    void twoBrokersRunSideBySideOnFreePorts() throws Exception {
        try (EmbeddedKafka one = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
             EmbeddedKafka two = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            assertThat(one.bootstrapServers()).isNotEqualTo(two.bootstrapServers());
            assertThat(clusterId(one)).isNotEqualTo(clusterId(two));

            createTopic(one, "only-on-one", 1, Map.of());
            createTopic(two, "only-on-two", 1, Map.of());
            TopicReads.produce(one.bootstrapServers(), "only-on-one", List.of(new KeyValue("k", "one")));
            TopicReads.produce(two.bootstrapServers(), "only-on-two", List.of(new KeyValue("k", "two")));

            assertThat(TopicReads.readAll(one.bootstrapServers(), "only-on-one")).containsExactly(new KeyValue("k", "one"));
            assertThat(TopicReads.readAll(two.bootstrapServers(), "only-on-two")).containsExactly(new KeyValue("k", "two"));
            try (Admin admin = admin(one)) {
                assertThat(admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS)).doesNotContain("only-on-two");
            }
        }
    }

    @Test
    void listensOnAGivenPort() throws Exception {
        int port = FreePorts.one();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withPort(port))) {
            assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            assertThat(clusterId(kafka)).isNotBlank();
        }
    }

    @Test
    void wildcardHostBindsEveryInterfaceAndAdvertisesLoopback() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withHost("0.0.0.0"))) {
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            createTopic(kafka, "everywhere", 1, Map.of());
            TopicReads.produce(kafka.bootstrapServers(), "everywhere", List.of(new KeyValue("k", "v")));

            assertThat(TopicReads.readAll(kafka.bootstrapServers(), "everywhere")).containsExactly(new KeyValue("k", "v"));
        }
    }

    @Test
    void failsClearlyWhenTheGivenPortIsTaken(@TempDir Path dir) throws Exception {
        Path kafkaDir = dir.resolve("kafka");
        EmbeddedKafkaConfig cfg = EmbeddedKafkaConfig.defaults().withDataDir(kafkaDir);
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> EmbeddedKafka.start(cfg.withPort(port)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("embedded Kafka cannot listen on 127.0.0.1:" + port + ": the port is in use");
        }
        // Nothing was left half-started: no thread of a broker runs on, and the directory was not even formatted,
        // so the next start on it is a first start (which restartOnTheSameDirectoryKeepsTopicsAndRecords covers).
        assertThat(Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t)).map(Thread::getName))
                .noneMatch(name -> name.contains("kafka") || name.contains("raft") || name.contains("controller"));
        if (Files.exists(kafkaDir)) {
            try (Stream<Path> files = Files.walk(kafkaDir)) {
                assertThat(files.filter(Files::isRegularFile)).isEmpty();
            }
        }
    }

    private static Admin admin(EmbeddedKafka kafka) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    private static void createTopic(EmbeddedKafka kafka, String name, int partitions, Map<String, String> configs)
            throws Exception {
        try (Admin admin = admin(kafka)) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all().get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    private static Map<String, ConfigEntry> topicConfig(EmbeddedKafka kafka, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = admin(kafka)) {
            Config config = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS).get(resource);
            return config.entries().stream().collect(Collectors.toMap(ConfigEntry::name, e -> e));
        }
    }

    private static String clusterId(EmbeddedKafka kafka) throws Exception {
        try (Admin admin = admin(kafka)) {
            return admin.describeCluster().clusterId().get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }
}
