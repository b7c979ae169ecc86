package io.healthmesh.cli.demo;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.RegistrySecurity;
import io.healthmesh.registry.RegistryUsers;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The whole healthmesh stack in one process: the KRaft broker, the schema registry, every topic with its four value
 * schemas registered and the aggregator, started in that order and closed in the reverse order; and one prober,
 * started by {@link #startProber()} and closed by the caller before this stack.
 */
public final class DemoStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DemoStack.class);
    static final String REGION = "demo";
    static final String HOST = "127.0.0.1";
    /** What the demo's prober may reach besides the defaults: loopback, where the demo backends listen. */
    public static final List<String> ALLOW_LIST = ProbeEngineConfig.LOOPBACK;

    /** What to start where. */
    public record Settings(int kafkaPort, int registryPort, Path dataDir, Topics topics) {
        public Settings {
            requireNonNull(dataDir, "dataDir");
            requireNonNull(topics, "topics");
        }
    }

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final Settings settings;
    private EmbeddedKafka kafka;
    private SchemaRegistryServer registry;
    private ProberWorker prober;
    private int aggregatorPort;

    private DemoStack(Settings settings) {
        this.settings = settings;
    }

    static final String ADMIN = "demo-admin";
    static final String WORKER = "demo-worker";
    /** Fresh for every run and never printed: only this process registers schemas (as the admin). */
    private final String adminPassword = randomPassword();
    private final String workerPassword = randomPassword();

    /**
     * The demo's registry asks for credentials like a real one: an admin (this process, registering the contract's
     * schemas) and a read-only user (the workers); clients without credentials (the quick start's {@code targets
     * apply} and {@code watch}) have the read role, so they can use the schemas already registered but add none.
     * Deletes and configuration changes are off. Plain HTTP on loopback, so the workers allow credentials over it.
     */
    private RegistrySecurity registrySecurity() {
        return RegistrySecurity.basic(RegistryUsers.parse(List.of(ADMIN + ":admin:" + adminPassword,
                WORKER + ":read:" + workerPassword), "demo users")).withAnonymousRead(true);
    }

    private void workerCredentials(Map<String, String> workerSettings) {
        workerSettings.put("basic.auth.credentials.source", "USER_INFO");
        workerSettings.put("basic.auth.user.info", WORKER + ":" + workerPassword);
        workerSettings.put(RegistryClients.ALLOW_INSECURE_HTTP, "true");
    }

    private static String randomPassword() {
        byte[] bytes = new byte[18];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Starts everything; on failure whatever was started is closed again and the cause is thrown. */
    public static DemoStack start(Settings settings) throws IOException {
        DemoStack stack = new DemoStack(settings);
        try {
            stack.startAll();
            return stack;
        } catch (IOException | RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private void startAll() throws IOException {
        Path data = settings.dataDir();
        Files.createDirectories(data);
        kafka = keep(EmbeddedKafka.start(new EmbeddedKafkaConfig(data.resolve("kafka"), HOST, settings.kafkaPort())));
        registry = keep(SchemaRegistryServer.start(new RegistryConfig(kafka.bootstrapServers(), Topics.SCHEMAS, HOST,
                settings.registryPort(), Map.of()).withSecurity(registrySecurity())));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            TopicSetup.ensure(admin, settings.topics(), Topics.DEFAULT_PARTITIONS, TopicReplication.singleCopy());
        }
        registerSchemas();
        Map<String, String> aggregator = new LinkedHashMap<>();
        aggregator.put("bootstrap.servers", kafka.bootstrapServers());
        aggregator.put("schema.registry.url", registry.url());
        workerCredentials(aggregator);
        aggregator.put("topic.prefix", settings.topics().prefix());
        aggregator.put("state.dir", data.resolve("aggregator").toString());
        // one broker: a single copy of each topic, knowingly
        aggregator.put("replication.factor", "1");
        aggregator.put("replication.single.copy.allowed", "true");
        aggregator.put("http.host", HOST);
        aggregator.put("http.port", "0");
        // one process: the aggregator serves the status page too (off by default, where the status role serves it)
        aggregator.put("status.page.enabled", "true");
        // A restart on the same data dir finds the previous run's Streams member still in the group (Streams does not
        // leave on close); the rebalance waits for that member's session to expire: keep it short for the demo.
        aggregator.put("kafka.session.timeout.ms", "6000");
        aggregatorPort = keep(AggregatorWorker.start(AggregatorConfig.from(aggregator))).httpPort();
    }

    /**
     * Starts the prober. Separate from {@link #start} so that the caller can start the demo backends first and close
     * the prober before them: a backend closing under a running prober would show as a failure.
     */
    public ProberWorker startProber() {
        Map<String, String> proberSettings = new LinkedHashMap<>();
        proberSettings.put("bootstrap.servers", kafka.bootstrapServers());
        proberSettings.put("schema.registry.url", registry.url());
        workerCredentials(proberSettings);
        proberSettings.put("topic.prefix", settings.topics().prefix());
        proberSettings.put("region", REGION);
        proberSettings.put("prober.id", "demo-prober");
        proberSettings.put("http.host", HOST);
        proberSettings.put("http.port", "0");
        // the demo's backends listen on loopback, which probers deny by default: the demo opens it (and says so)
        proberSettings.put("allow.list", String.join(",", ALLOW_LIST));
        // still never the demo's own query API (Kafka, the registry and the prober's port are denied anyway)
        proberSettings.put("deny.endpoints", HOST + ":" + aggregatorPort);
        prober = ProberWorker.start(ProberConfig.from(proberSettings));
        return prober;
    }

    /**
     * Registers the value schema of every topic under its subject ({@code <topic>-value}), so that outside clients
     * using {@code use.latest.version} (or auto-registration off) can produce and consume at once.
     */
    private void registerSchemas() {
        Topics t = settings.topics();
        Map<String, Schema> subjects = new LinkedHashMap<>();
        subjects.put(t.targets() + "-value", TargetDefinition.getClassSchema());
        subjects.put(t.probeResults() + "-value", ProbeResult.getClassSchema());
        subjects.put(t.healthState() + "-value", TargetHealth.getClassSchema());
        subjects.put(t.groupState() + "-value", GroupHealth.getClassSchema());
        subjects.put(t.groups() + "-value", GroupPolicy.getClassSchema());
        try (SchemaRegistryClient client = RegistryClients.fromConfig(Map.of(RegistryClients.URL, registry.url(),
                RegistryClients.CREDENTIALS_SOURCE, "USER_INFO", RegistryClients.USER_INFO, ADMIN + ":" + adminPassword,
                RegistryClients.ALLOW_INSECURE_HTTP, "true"))) {
            subjects.forEach((subject, schema) -> {
                int id = client.register(subject, schema.toString());
                LOG.info("schema of {} registered with id {}", subject, id);
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the registry client: " + e.getMessage(), e);
        }
    }

    private <T extends AutoCloseable> T keep(T part) {
        started.push(part);
        return part;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String registryUrl() {
        return registry.url();
    }

    public int proberOpsPort() {
        return prober.opsPort();
    }

    public int aggregatorOpsPort() {
        return aggregatorPort;
    }

    /** Closes in reverse order of start: aggregator, registry, broker. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            AutoCloseable part = started.pop();
            try {
                part.close();
            } catch (Exception e) {
                LOG.warn("{} did not close cleanly: {}", part.getClass().getSimpleName(), e.toString());
            }
        }
    }

    /** Deletes a temporary data directory (never one the user named). */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.debug("cannot delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            LOG.debug("cannot walk {}: {}", dir, e.toString());
        }
    }
}
