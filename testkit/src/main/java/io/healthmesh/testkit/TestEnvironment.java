package io.healthmesh.testkit;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.SchemaRegistryServer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker, schema registry and admin client that every test class of a run shares. JUnit closes it at the end
 * of the run because it is {@link AutoCloseable} and lives in the root context's store.
 */
final class TestEnvironment implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TestEnvironment.class);
    private static final AtomicInteger STARTED = new AtomicInteger();

    private final TestBroker broker;
    private final SchemaRegistryServer registry;
    private final Admin admin;
    private final TestKafka testKafka;

    private TestEnvironment(TestBroker broker, SchemaRegistryServer registry, Admin admin) {
        this.broker = broker;
        this.registry = registry;
        this.admin = admin;
        this.testKafka = new TestKafka(broker.bootstrapServers(), registry.url(), admin);
    }

    /** Starts the broker chosen from the system properties, then a registry on it. */
    static TestEnvironment start() {
        BackendChoice choice = BackendChoice.choose(System.getProperty(KafkaExtension.CONTAINERS_PROPERTY),
                ContainerBroker::dockerAnswers);
        TestBroker broker = startBroker(choice);
        Admin admin = null;
        try {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
            SchemaRegistryServer registry = SchemaRegistryServer.start(RegistryConfig.defaults(broker.bootstrapServers()));
            STARTED.incrementAndGet();
            TestEnvironment environment = new TestEnvironment(broker, registry, admin);
            LOG.info("Tests share {}", environment.testKafka);
            return environment;
        } catch (RuntimeException | Error e) {
            // e.g. the registry failed: a running container would outlive the JVM when Ryuk is disabled
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
            broker.close();
            throw e;
        }
    }

    private static TestBroker startBroker(BackendChoice choice) {
        if (choice.kind() == BackendChoice.Kind.CONTAINER) {
            String image = System.getProperty(KafkaExtension.KAFKA_IMAGE_PROPERTY, KafkaExtension.DEFAULT_KAFKA_IMAGE);
            try {
                TestBroker container = ContainerBroker.start(image);
                LOG.info("Using {} ({})", container, choice.reason());
                return container;
            } catch (RuntimeException e) {
                LOG.warn("Using embedded Kafka: the Kafka container {} did not start ({})", image, e.toString());
                return embedded();
            }
        }
        if (choice.fellBack()) {
            LOG.warn("Using {}", choice.reason());
        } else {
            LOG.info("Using {}", choice.reason());
        }
        return embedded();
    }

    private static TestBroker embedded() {
        EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        return new TestBroker() {
            @Override
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            @Override
            public void close() {
                kafka.close();
            }

            @Override
            public String toString() {
                return kafka.toString();
            }
        };
    }

    /** How many environments this JVM started (one per test run). */
    static int started() {
        return STARTED.get();
    }

    TestKafka testKafka() {
        return testKafka;
    }

    /** Stops in reverse order of start: the admin client and the registry need the broker while they stop. */
    @Override
    public void close() {
        try {
            admin.close(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            LOG.warn("Test admin client did not close cleanly", e);
        }
        try {
            registry.close();
        } catch (RuntimeException e) {
            LOG.warn("Test schema registry did not close cleanly", e);
        }
        broker.close();
    }
}
