package io.healthmesh.bench.run;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.schemas.TopicSetup;
import io.healthmesh.schemas.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.util.Map;

/**
 * What the driver's own JVM runs for the workers: one KRaft broker ({@link EmbeddedKafka}) and the schema registry
 * ({@link SchemaRegistryServer}) on loopback, with every healthmesh topic created (6 partitions).
 */
public final class BenchStack implements AutoCloseable {

    private final EmbeddedKafka broker;
    private final SchemaRegistryServer registry;
    private final Admin admin;

    private BenchStack(EmbeddedKafka broker, SchemaRegistryServer registry, Admin admin) {
        this.broker = broker;
        this.registry = registry;
        this.admin = admin;
    }

    public static BenchStack start() {
        EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        SchemaRegistryServer registry = null;
        Admin admin = null;
        try {
            registry = SchemaRegistryServer.start(RegistryConfig.defaults(broker.bootstrapServers()));
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
            TopicSetup.ensure(admin, Topics.DEFAULT, Topics.DEFAULT_PARTITIONS, (short) 1);
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

    public String registryUrl() {
        return registry.url();
    }

    public Topics topics() {
        return Topics.DEFAULT;
    }

    public Admin admin() {
        return admin;
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
