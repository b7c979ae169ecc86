package io.healthmesh.registry;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.HttpMethod;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import java.util.UUID;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The schema registry on a real broker: the four record types go through the serde and Kafka, the
 * registry restarts on the same schema topic, and the records written before decode by their ids.
 */
class SchemaRegistryKafkaIT {

    // The registry module sits below testkit (testkit starts a registry), so this test starts its own broker.
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Test
    void fourRecordTypesDecodeByIdAfterARegistryRestart() throws Exception {
        RegistryConfig config = new RegistryConfig(kafka.bootstrapServers(), uniqueTopic("_schemas"), "127.0.0.1", 0, Map.of());
        Map<String, SpecificRecord> sent = new LinkedHashMap<>();
        sent.put(uniqueTopic("targets"), targetDefinition());
        sent.put(uniqueTopic("probe-results"), probeResult());
        sent.put(uniqueTopic("health-state"), targetHealth());
        sent.put(uniqueTopic("group-state"), groupHealth());
        Map<String, Integer> idsBeforeRestart = new LinkedHashMap<>();

        try (SchemaRegistryServer registry = SchemaRegistryServer.start(config)) {
            for (Map.Entry<String, SpecificRecord> entry : sent.entrySet()) {
                createTopic(entry.getKey(), 1, false);
                produce(registry.url(), entry.getKey(), entry.getValue());
                byte[] bytes = readOne(entry.getKey());
                idsBeforeRestart.put(entry.getKey(), ByteBuffer.wrap(bytes, 1, 4).getInt());
                assertThat(decode(registry.url(), entry.getValue(), entry.getKey(), bytes)).isEqualTo(entry.getValue());
            }
        }
        assertThat(idsBeforeRestart.values()).containsExactly(1, 2, 3, 4);
        assertSchemaTopicIsCompactedWithOnePartition(config.topic());

        try (SchemaRegistryServer restarted = SchemaRegistryServer.start(config)) {
            for (Map.Entry<String, SpecificRecord> entry : sent.entrySet()) {
                byte[] bytes = readOne(entry.getKey());
                // a fresh serde on the restarted registry has nothing cached: the writer schema comes from the topic's replay
                assertThat(decode(restarted.url(), entry.getValue(), entry.getKey(), bytes)).isEqualTo(entry.getValue());
            }
            try (SchemaRegistryClient client = RegistryClients.fromConfig(Map.of("schema.registry.url", restarted.url()))) {
                String topic = sent.keySet().iterator().next();
                assertThat(client.register(topic + "-value", TargetDefinition.getClassSchema().toString()))
                        .isEqualTo(idsBeforeRestart.get(topic));
                assertThat(client.register("fresh-value", "\"string\"")).isEqualTo(5);
            }
        }
    }

    @Test
    void refusesASchemaTopicWithSeveralPartitionsOrWithoutCompaction() {
        String partitioned = uniqueTopic("_schemas-partitioned");
        createTopic(partitioned, 3, true);
        assertThatThrownBy(() -> SchemaRegistryServer.start(new RegistryConfig(kafka.bootstrapServers(), partitioned, "127.0.0.1", 0, Map.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("3 partitions (expected: 1");
        String deleting = uniqueTopic("_schemas-deleting");
        createTopic(deleting, 1, false);
        assertThatThrownBy(() -> SchemaRegistryServer.start(new RegistryConfig(kafka.bootstrapServers(), deleting, "127.0.0.1", 0, Map.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cleanup.policy=delete");
    }

    private static void produce(String registryUrl, String topic, SpecificRecord record) throws Exception {
        @SuppressWarnings("unchecked")
        Class<SpecificRecord> type = (Class<SpecificRecord>) record.getClass();
        try (AvroSerde<SpecificRecord> serde = AvroSerde.forValues(type, Map.of("schema.registry.url", registryUrl));
             KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(), serde.serializer())) {
            producer.send(new ProducerRecord<>(topic, "key-1", record)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static Object decode(String registryUrl, SpecificRecord like, String topic, byte[] bytes) {
        @SuppressWarnings("unchecked")
        Class<SpecificRecord> type = (Class<SpecificRecord>) like.getClass();
        try (AvroSerde<SpecificRecord> serde = AvroSerde.forValues(type, Map.of("schema.registry.url", registryUrl))) {
            return serde.deserializer().deserialize(topic, bytes);
        }
    }

    /** The value bytes of the one record of a one-partition topic. */
    private static byte[] readOne(String topic) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (records.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            assertThat(records).as("records of " + topic).hasSize(1);
            assertThat(records.get(0).key()).isEqualTo("key-1");
            return records.get(0).value();
        }
    }

    private static void assertSchemaTopicIsCompactedWithOnePartition(String topic) throws Exception {
        try (Admin admin = admin()) {
            assertThat(admin.describeTopics(Set.of(topic)).allTopicNames().get(PATIENCE.toSeconds(), TimeUnit.SECONDS)
                    .get(topic).partitions()).hasSize(1);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(Set.of(resource)).all().get(PATIENCE.toSeconds(), TimeUnit.SECONDS).get(resource);
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    private static TargetDefinition targetDefinition() {
        return TargetDefinition.newBuilder().setId("web-1").setGroup("pool-a").setAddress("127.0.0.1").setPort(8080)
                .setProtocol(Protocol.HTTP).setLabels(Map.of("team", "edge"))
                .setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/healthz").build())
                .setRegions(List.of("eu")).build();
    }

    private static ProbeResult probeResult() {
        return ProbeResult.newBuilder().setTargetId("web-1").setGeneration(42L).setProberId("p-1").setProtocol(Protocol.HTTP)
                .setStartedAtMs(1_700_000_000_000L).setOutcome(ProbeOutcome.SUCCESS).setLatencyMicros(900)
                .setHttpStatus(200).build();
    }

    private static TargetHealth targetHealth() {
        return TargetHealth.newBuilder().setTargetId("web-1").setGroup("pool-a").setStatus(HealthStatus.HEALTHY)
                .setSinceMs(1_700_000_000_000L).setGeneration(42L).setUpdatedAtMs(1_700_000_000_100L)
                .setRegions(List.of(RegionHealth.newBuilder().setRegion("eu").setStatus(HealthStatus.HEALTHY).build())).build();
    }

    private static GroupHealth groupHealth() {
        return GroupHealth.newBuilder().setGroupId("pool-a").setFailOpen(false).setMembers(1).setHealthy(1).setUnhealthy(0)
                .setDetecting(0).setDisabled(0).setRoutable(List.of("web-1")).setUpdatedAtMs(1_700_000_000_100L).build();
    }

    private static String uniqueTopic(String base) {
        return base + "-" + UUID.randomUUID();
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    private static void createTopic(String name, int partitions, boolean compacted) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1);
        if (compacted) {
            topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        try (Admin admin = admin()) {
            admin.createTopics(List.of(topic)).all().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + name, e);
        }
    }
}
