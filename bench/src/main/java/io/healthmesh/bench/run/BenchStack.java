package io.healthmesh.bench.run;

import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the driver's own JVM runs for the workers: one KRaft broker (or three, replicated: {@link Brokers}) and the
 * schema registry ({@link SchemaRegistryServer}) on loopback, with every healthmesh topic created (6 partitions,
 * replicated to every broker).
 */
public final class BenchStack implements AutoCloseable {

    private final Brokers broker;
    private final SchemaRegistryServer registry;
    private final Admin admin;

    private BenchStack(Brokers broker, SchemaRegistryServer registry, Admin admin) {
        this.broker = broker;
        this.registry = registry;
        this.admin = admin;
    }

    public static BenchStack start() {
        return start(Map.of(), 1);
    }

    /**
     * @param brokerSettings broker properties on top of the brokers' own (e.g. to compare a setting)
     * @param brokers 1 (the embedded broker) or 3 (a replicated cluster in this JVM)
     */
    public static BenchStack start(Map<String, String> brokerSettings, int brokers) {
        Brokers broker = Brokers.start(brokers, brokerSettings);
        SchemaRegistryServer registry = null;
        Admin admin = null;
        try {
            registry = SchemaRegistryServer.start(RegistryConfig.defaults(broker.bootstrapServers()));
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
            TopicSetup.ensure(admin, Topics.DEFAULT, Topics.DEFAULT_PARTITIONS,
                    new TopicReplication((short) broker.count(), broker.count() == 1));
            return new BenchStack(broker, registry, admin);
        } catch (RuntimeException e) {
            if (admin != null) {
                admin.close();
            }
            if (registry != null) {
                registry.close();
            }
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Brokers in the stack, the replication factor of its topics. */
    public int brokerCount() {
        return broker.count();
    }

    public String registryUrl() {
        return registry.url();
    }

    public Topics topics() {
        return Topics.DEFAULT;
    }

    public Admin admin() {
        return admin;
    }

    /**
     * Deletes every record of {@code topic} (its log start moves to its end), so that a consumer that starts
     * from the beginning, such as a new aggregator, starts with no backlog.
     */
    public void truncate(String topic) throws Exception {
        int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().size();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> delete.put(tp, RecordsToDelete.beforeOffset(info.offset())));
        admin.deleteRecords(delete).all().get(30, TimeUnit.SECONDS);
    }

    /** The serde settings every client of the run uses. */
    public Map<String, Object> serdeConfig() {
        return Map.of("schema.registry.url", registry.url());
    }

    @Override
    public void close() {
        admin.close();
        registry.close();
        broker.close();
    }
}
