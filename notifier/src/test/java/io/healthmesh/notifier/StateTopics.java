package io.healthmesh.notifier;

import io.healthmesh.testkit.TestKafka;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A fresh set of healthmesh topics (a unique prefix) on the test broker and a producer that writes what the
 * aggregator and the CLI write there: target definitions (for labels), target state events and group events.
 */
final class StateTopics implements AutoCloseable {

    final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final AvroSerde<TargetHealth> health;
    private final AvroSerde<GroupHealth> groups;
    private final AvroSerde<TargetDefinition> definitions;

    StateTopics(TestKafka kafka, int partitions) {
        this.topics = new Topics(kafka.uniqueTopic("notifier") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, partitions, (short) 1);
        }
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
        this.health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
        this.groups = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig());
        this.definitions = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
    }

    RecordMetadata define(String id, String group, Map<String, String> labels) {
        TargetDefinition d = TargetDefinition.newBuilder().setId(id).setGroup(group).setAddress("127.0.0.1")
                .setPort(1).setProtocol(Protocol.TCP).setLabels(Map.copyOf(labels)).build();
        return send(topics.targets(), id, definitions.serializer().serialize(topics.targets(), d));
    }

    RecordMetadata state(String id, String group, HealthStatus status, long sinceMs) {
        TargetHealth t = TargetHealth.newBuilder().setTargetId(id).setGroup(group).setStatus(status)
                .setSinceMs(sinceMs).setGeneration(1).setUpdatedAtMs(sinceMs).build();
        return send(topics.healthState(), id, health.serializer().serialize(topics.healthState(), t));
    }

    RecordMetadata group(String id, boolean failOpen, long atMs) {
        GroupHealth g = GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen).setMembers(2)
                .setHealthy(failOpen ? 0 : 2).setUnhealthy(failOpen ? 2 : 0).setDetecting(0).setDisabled(0)
                .setRoutable(List.of("a", "b")).setUpdatedAtMs(atMs).build();
        return send(topics.groupState(), id, groups.serializer().serialize(topics.groupState(), g));
    }

    private RecordMetadata send(String topic, String key, byte[] value) {
        try {
            return producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("produce to " + topic + " failed", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
