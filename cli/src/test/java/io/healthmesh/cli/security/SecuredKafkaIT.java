package io.healthmesh.cli.security;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.cli.AsyncCliRun;
import io.healthmesh.cli.CliRun;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.registry.ListenerTls;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.RegistrySecurity;
import io.healthmesh.registry.RegistryUsers;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every role on a broker that requires TLS and SASL, with the least-privilege ACLs of docs/SECURITY.md: the
 * registry (its Kafka clients as {@code registry}, its HTTP listener on TLS with basic authentication), the
 * aggregator, a prober, {@code targets apply} and {@code watch} work end to end over SCRAM-SHA-512 and over
 * OAUTHBEARER (unsecured JWTs, for tests); a role is refused where its ACLs do not reach.
 */
class SecuredKafkaIT {

    private static final String REGION = "r1";
    private static final String APP = "sec-aggregator";
    private static final String SCHEMAS = "_sec_schemas";
    private static final Topics TOPICS = new Topics("sec.");
    private static final String REGISTRY_ADMIN_PASSWORD = UUID.randomUUID().toString();
    private static final String REGISTRY_READER_PASSWORD = UUID.randomUUID().toString();

    @TempDir
    static Path dir;
    private static SecuredCluster cluster;
    private static ServerSocket backend;
    private static Thread acceptor;
    private static final List<AutoCloseable> running = new ArrayList<>();
    private static SchemaRegistryServer registry;

    @BeforeAll
    static void start() throws Exception {
        cluster = SecuredCluster.start(dir);
        for (String user : List.of("registry", "aggregator", "prober", "cli-apply", "cli-watch")) {
            cluster.addUser(user);
        }
        List<org.apache.kafka.common.acl.AclBinding> acls = new ArrayList<>();
        acls.addAll(RoleAcls.registry("registry", SCHEMAS));
        acls.addAll(RoleAcls.aggregator("aggregator", TOPICS, APP));
        acls.addAll(RoleAcls.prober("prober", TOPICS, REGION));
        acls.addAll(RoleAcls.targetsWriter("cli-apply", TOPICS));
        acls.addAll(RoleAcls.watcher("cli-watch", TOPICS));
        cluster.allow(acls);
        cluster.awaitLogin(cluster.scram("registry"));

        backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> {
            while (!backend.isClosed()) {
                try (Socket ignored = backend.accept()) {
                    // a TCP health check only connects
                } catch (IOException e) {
                    return;
                }
            }
        }, "secured-it-backend");
        acceptor.setDaemon(true);
        acceptor.start();

        RegistrySecurity security = RegistrySecurity.basic(RegistryUsers.parse(List.of(
                        "admin:admin:" + REGISTRY_ADMIN_PASSWORD, "reader:read:" + REGISTRY_READER_PASSWORD), "test users"))
                .withTls(ListenerTls.pem(cluster.certs().certificatePem(), cluster.certs().privateKeyPem(), null));
        registry = SchemaRegistryServer.start(new RegistryConfig(cluster.secureBootstrap(), SCHEMAS, "127.0.0.1", 0,
                cluster.scram("registry")).withSecurity(security).withContractPrefixes(List.of(TOPICS.prefix())));
        running.add(registry);
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
        if (backend != null) {
            backend.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The registry client settings of a worker or a CLI: read-only user, https with the test trust store. */
    private static Map<String, String> registryClient() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("schema.registry.url", registry.url());
        s.put("basic.auth.credentials.source", "USER_INFO");
        s.put("basic.auth.user.info", "reader:" + REGISTRY_READER_PASSWORD);
        s.put("schema.registry.ssl.truststore.location", cluster.certs().trustStore().toString());
        s.put("schema.registry.ssl.truststore.password", cluster.certs().password());
        return s;
    }

    private static Map<String, String> workerSettings(Map<String, String> kafka) {
        Map<String, String> s = new LinkedHashMap<>(registryClient());
        s.put("bootstrap.servers", cluster.secureBootstrap());
        s.put("topic.prefix", TOPICS.prefix());
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        kafka.forEach((k, v) -> s.put("kafka." + k, v));
        return s;
    }

    private static Path commandConfig(String name, Map<String, String> kafka) throws IOException {
        StringBuilder text = new StringBuilder();
        Map<String, String> all = new LinkedHashMap<>(kafka);
        all.putAll(registryClient());
        all.remove("schema.registry.url");
        all.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        return Files.writeString(dir.resolve(name + ".properties"), text.toString());
    }

    private static String[] cli(Path config, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-server", cluster.secureBootstrap(), "--schema-registry", registry.url(),
                "--topic-prefix", TOPICS.prefix(), "--command-config", config.toString()));
        return all.toArray(String[]::new);
    }

    private static Path targets(String id) throws IOException {
        return Files.writeString(dir.resolve(id + ".yaml"), "targets:\n"
                + "  - id: " + id + "\n"
                + "    group: secured\n"
                + "    address: 127.0.0.1\n"
                + "    port: " + backend.getLocalPort() + "\n"
                + "    protocol: TCP\n"
                + "    intervalMs: 1000\n"
                + "    timeoutMs: 500\n"
                + "    healthyThreshold: 2\n"
                + "    unhealthyThreshold: 2\n");
    }

    @Test
    void everyRoleWorksOverScramAndIsRefusedWhereItsAclsDoNotReach() throws Exception {
        runRoles("scram", cluster::scram);
    }

    @Test
    void everyRoleWorksOverOauthBearer() throws Exception {
        runRoles("oauth", cluster::oauth);
    }

    private void runRoles(String mechanism, java.util.function.Function<String, Map<String, String>> login) throws Exception {
        Map<String, String> aggregatorSettings = workerSettings(login.apply("aggregator"));
        aggregatorSettings.put("application.id", APP);
        aggregatorSettings.put("state.dir", dir.resolve("state-" + mechanism).toString());
        aggregatorSettings.put("replication.factor", "1");
        aggregatorSettings.put("replication.single.copy.allowed", "true");
        aggregatorSettings.put("partitions", "2");
        aggregatorSettings.put("kafka.session.timeout.ms", "6000");
        AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(aggregatorSettings));
        Map<String, String> proberSettings = workerSettings(login.apply("prober"));
        proberSettings.put("region", REGION);
        proberSettings.put("prober.id", "secured-" + mechanism);
        proberSettings.put("allow.list", "127.0.0.0/8"); // the backend is on loopback, which probers deny by default
        ProberWorker prober = null;
        AsyncCliRun watch = null;
        try {
            prober = ProberWorker.start(ProberConfig.from(proberSettings));
            Path applyConfig = commandConfig("apply-" + mechanism, login.apply("cli-apply"));
            Path watchConfig = commandConfig("watch-" + mechanism, login.apply("cli-watch"));
            String target = "secured-" + mechanism;

            CliRun apply = CliRun.of(cli(applyConfig, "targets", "apply", "-f", targets(target).toString()));
            assertThat(apply.exitCode()).as(apply.out() + apply.err()).isZero();

            watch = AsyncCliRun.start(cli(watchConfig, "watch", "--target", target, "--duration", "40s"));
            watch.awaitMatch(java.util.regex.Pattern.compile(target + ".*(-> |= )HEALTHY"), Duration.ofSeconds(35));

            // (the watcher may start after the change: its first lines show the current state, "= HEALTHY")
            // where the ACLs do not reach: the watcher cannot write targets, the writer cannot watch states,
            // the prober cannot write the targets topic
            CliRun applyAsWatcher = CliRun.of(cli(watchConfig, "targets", "apply", "-f", targets("intruder").toString()));
            assertThat(applyAsWatcher.exitCode()).isNotZero();
            assertThat(applyAsWatcher.err()).containsIgnoringCase("authoriz");
            CliRun watchAsWriter = CliRun.of(cli(applyConfig, "watch", "--duration", "3s"));
            assertThat(watchAsWriter.exitCode()).isNotZero();
            assertThat(watchAsWriter.err()).containsIgnoringCase("authoriz");
            Map<String, Object> producer = new LinkedHashMap<>(login.apply("prober"));
            producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.secureBootstrap());
            producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
            try (KafkaProducer<String, byte[]> asProber = new KafkaProducer<>(producer, new StringSerializer(),
                    new ByteArraySerializer())) {
                assertThatThrownBy(() -> asProber.send(new ProducerRecord<>(TOPICS.targets(), "x", new byte[] {0}))
                        .get(30, TimeUnit.SECONDS))
                        .isInstanceOfAny(ExecutionException.class, TopicAuthorizationException.class)
                        .satisfies(e -> assertThat(e.getCause() == null ? e : e.getCause())
                                .isInstanceOf(TopicAuthorizationException.class));
            }
            // nobody's output carries a secret it was given
            String secrets = REGISTRY_READER_PASSWORD + "|" + cluster.certs().password();
            assertThat(watch.out() + watch.err() + apply.out() + apply.err()).doesNotContainPattern(secrets);
        } finally {
            if (watch != null) {
                watch.stop(Duration.ofSeconds(90)); // as Ctrl-C would: no need to wait out its --duration
            }
            if (prober != null) {
                prober.close();
            }
            aggregator.close();
        }
    }
}
