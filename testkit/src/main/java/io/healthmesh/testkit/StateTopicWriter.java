package io.healthmesh.testkit;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
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
 * Writes what the aggregator would write to the state topics (and definitions to the targets topic), in the
 * contract's wire format, for tests of the roles that follow those topics (the data planes, the notifier). Each
 * write waits for the broker's acknowledgement. Creates the topics with {@code TopicSetup} under a fresh prefix.
 */
public final class StateTopicWriter implements AutoCloseable {

    private final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final AvroSerde<TargetHealth> health;
    private final AvroSerde<GroupHealth> groups;
    private final AvroSerde<TargetDefinition> definitions;

    public StateTopicWriter(TestKafka kafka, String name, int partitions) {
        this.topics = new Topics(kafka.uniqueTopic(name) + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, partitions, TopicReplication.singleCopy());
        }
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
        this.health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
        this.groups = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig());
        this.definitions = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
    }

    /** The topics written to (their prefix is unique to this writer). */
    public Topics topics() {
        return topics;
    }

    /** A TCP target definition of {@code group} at {@code address:port}. */
    public RecordMetadata define(String id, String group, String address, int port, int weight,
                                 Map<String, String> labels) {
        TargetDefinition d = TargetDefinition.newBuilder().setId(id).setGroup(group).setAddress(address)
                .setPort(port).setProtocol(Protocol.TCP).setWeight(weight).setLabels(Map.copyOf(labels)).build();
        return send(topics.targets(), id, definitions.serializer().serialize(topics.targets(), d));
    }

    /** A definition as given. */
    public RecordMetadata define(TargetDefinition d) {
        return send(topics.targets(), d.getId(), definitions.serializer().serialize(topics.targets(), d));
    }

    /** A target's state event. */
    public RecordMetadata state(String id, String group, HealthStatus status, long atMs) {
        TargetHealth t = TargetHealth.newBuilder().setTargetId(id).setGroup(group).setStatus(status)
                .setSinceMs(atMs).setGeneration(1).setUpdatedAtMs(atMs).build();
        return send(topics.healthState(), id, health.serializer().serialize(topics.healthState(), t));
    }

    /**
     * A group event with a complete routable list.
     *
     * @param statuses every member's status (counts are taken from them)
     * @param routable the routable ids as the aggregator decided them
     */
    public RecordMetadata group(String id, boolean failOpen, Map<String, HealthStatus> statuses,
                                List<String> routable, long atMs) {
        int healthy = count(statuses, HealthStatus.HEALTHY);
        GroupHealth g = GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen).setMembers(statuses.size())
                .setHealthy(healthy).setUnhealthy(count(statuses, HealthStatus.UNHEALTHY))
                .setDetecting(count(statuses, HealthStatus.DETECTING))
                .setDisabled(count(statuses, HealthStatus.DISABLED))
                .setRoutable(routable.stream().sorted().toList()).setUpdatedAtMs(atMs).build();
        return send(topics.groupState(), id, groups.serializer().serialize(topics.groupState(), g));
    }

    /** A target's deletion: tombstones on the targets and health-state topics. */
    public void delete(String id) {
        send(topics.targets(), id, null);
        send(topics.healthState(), id, null);
    }

    /** A group's tombstone (its last member left). */
    public RecordMetadata deleteGroup(String id) {
        return send(topics.groupState(), id, null);
    }

    /** Raw bytes, e.g. a record that is not in the contract's wire format. */
    public RecordMetadata raw(String topic, String key, byte[] value) {
        return send(topic, key, value);
    }

    private static int count(Map<String, HealthStatus> statuses, HealthStatus status) {
        return (int) statuses.values().stream().filter(status::equals).count();
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
        health.close();
        groups.close();
        definitions.close();
    }
}
