package io.healthmesh.cli.roles;

import io.healthmesh.cli.CliRun;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BEHAVIOUR.md section 11: secrets never reach a log. Each role starts with every kind of secret it accepts configured
 * (SASL JAAS config, SSL passwords, registry user info, a registry URL with user info); everything it logs at INFO
 * and above (its own lines and the Kafka clients' configuration dumps) and everything it prints is captured and
 * searched for the secret values. The broker is plaintext: the security settings are carried, not used. Every role
 * also starts once with settings it refuses, secrets among them, and its refusal is searched the same way.
 */
@ExtendWith(KafkaExtension.class)
class SecretsInLogsIT {

    private static final List<String> SECRETS = List.of("JAAS-SECRET-1", "TRUST-SECRET-2", "KEYSTORE-SECRET-3",
            "KEY-SECRET-4", "USERINFO-SECRET-5", "URL-SECRET-6", "ADMIN-SECRET-7", "HOOK-SECRET-8", "HEADER-SECRET-9",
            "TOKEN-SECRET-10");

    private final TestKafka kafka;
    private final StringWriter captured = new StringWriter();
    private WriterAppender appender;
    private Level rootLevel;

    SecretsInLogsIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeEach
    void captureEveryLog() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        appender = WriterAppender.newBuilder().setName("secrets-capture").setTarget(captured)
                .setLayout(PatternLayout.newBuilder().withPattern("%c - %msg%n%throwable").build()).build();
        appender.start();
        configuration.addAppender(appender);
        LoggerConfig root = configuration.getRootLogger();
        rootLevel = root.getLevel();
        root.setLevel(Level.INFO); // Kafka's clients print their configuration at INFO
        root.addAppender(appender, Level.ALL, null);
        configuration.getLoggerConfig("io.healthmesh").addAppender(appender, Level.ALL, null);
        context.updateLoggers();
    }

    @AfterEach
    void stopCapturing() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        configuration.getRootLogger().removeAppender(appender.getName());
        configuration.getLoggerConfig("io.healthmesh").removeAppender(appender.getName());
        configuration.getRootLogger().setLevel(rootLevel);
        context.updateLoggers();
        appender.stop();
    }

    private static String kafkaSecrets() {
        return "kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"svc\" password=\"JAAS-SECRET-1\";\n"
                + "kafka.sasl.mechanism=PLAIN\n"
                + "kafka.ssl.truststore.password=TRUST-SECRET-2\n"
                + "kafka.ssl.keystore.password=KEYSTORE-SECRET-3\n"
                + "kafka.ssl.key.password=KEY-SECRET-4\n";
    }

    /** The test registry's URL with user info in it: the client takes its credentials from there. */
    private String registryUrlWithCredentials() {
        URI plain = URI.create(kafka.schemaRegistryUrl());
        return plain.getScheme() + "://reader:URL-SECRET-6@" + plain.getAuthority();
    }

    private void assertNoSecret(CliRun run) {
        String everything = captured + "\n" + run.out() + "\n" + run.err();
        assertThat(captured.toString()).as("nothing captured: the capture is broken").isNotBlank();
        for (String secret : SECRETS) {
            assertThat(everything).as("output contains " + secret).doesNotContain(secret);
        }
    }

    @Test
    void proberLogsNoSecret(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("secret-prober") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        Path config = Files.writeString(dir.resolve("prober.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nschema.registry.url=" + registryUrlWithCredentials() + "\ntopic.prefix=" + topics.prefix()
                + "\nhttp.host=127.0.0.1\nhttp.port=0\nregion=it\n"
                + "schema.registry.basic.auth.allow.insecure.http=true\n" // the test registry is plain http
                + kafkaSecrets());
        CliRun run = CliRun.of("prober", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(captured.toString()).contains("egress policy").contains("sasl.jaas.config");
        assertNoSecret(run);
    }

    @Test
    void aggregatorLogsNoSecret(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("secret-aggregator") + ".");
        Path config = Files.writeString(dir.resolve("aggregator.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl()
                + "\nbasic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=reader:USERINFO-SECRET-5"
                + "\ntopic.prefix=" + topics.prefix() + "\napplication.id=" + kafka.uniqueTopic("app")
                + "\nstate.dir=" + dir.resolve("state") + "\nhttp.host=127.0.0.1\nhttp.port=0\npartitions=1\n"
                + "replication.factor=1\nreplication.single.copy.allowed=true\n"
                + "schema.registry.basic.auth.allow.insecure.http=true\n" // the test registry is plain http
                + kafkaSecrets());
        CliRun run = CliRun.of("aggregator", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        // no http.token: one line says the query API and the status page are open, and how to close them
        assertThat(captured.toString()).contains("need no token").contains("http.token");
        assertNoSecret(run);
    }

    @Test
    void registryLogsNoSecret(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("registry.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nregistry.topic=" + kafka.uniqueTopic("schemas") + "\nhttp.host=127.0.0.1\nhttp.port=0\n"
                + "registry.users=admin:admin:ADMIN-SECRET-7\n" + kafkaSecrets());
        CliRun run = CliRun.of("registry", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertNoSecret(run);
    }

    @Test
    void dnsLogsNoSecret(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("secret-dns") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        String tsig = java.util.Base64.getEncoder().encodeToString("TSIG-SECRET-8".getBytes());
        Files.writeString(dir.resolve("update.key"), "key \"u\" { algorithm hmac-sha256; secret \"" + tsig + "\"; };\n");
        Path mapping = Files.writeString(dir.resolve("dns.yaml"), "keys: [{name: u, secretFile: update.key}]\n"
                + "records: [{group: api, zone: example.test, name: api, server: '127.0.0.1:"
                + io.healthmesh.embedded.FreePorts.one() + "', key: u}]\n");
        Path config = Files.writeString(dir.resolve("dns.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nschema.registry.url=" + kafka.schemaRegistryUrl()
                + "\nbasic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=reader:USERINFO-SECRET-5"
                + "\ntopic.prefix=" + topics.prefix() + "\nmapping.file=" + mapping
                + "\nhttp.host=127.0.0.1\nhttp.port=0\nupdate.timeout.ms=500\n"
                + "schema.registry.basic.auth.allow.insecure.http=true\n" // the test registry is plain http
                + kafkaSecrets());
        CliRun run = CliRun.of("dns", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(captured.toString()).contains("dns role started");
        assertNoSecret(run);
        assertThat(captured + run.out() + run.err()).doesNotContain(tsig).doesNotContain("TSIG-SECRET-8");
    }

    @Test
    void rejectedSettingsDoNotEchoSecrets(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("prober.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nschema.registry.url=" + registryUrlWithCredentials() + "\nbasic.auth.credentials.source=NOPE"
                + "\nbasic.auth.user.info=reader:USERINFO-SECRET-5\nhttp.port=99999\n" + kafkaSecrets());
        CliRun run = CliRun.of("prober", "--config", config.toString(), "--duration", "1s");
        assertThat(run.exitCode()).isEqualTo(2);
        String everything = captured + "\n" + run.out() + "\n" + run.err();
        for (String secret : SECRETS) {
            assertThat(everything).as("output contains " + secret).doesNotContain(secret);
        }
    }

    @Test
    void notifierLogsNoSecret(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("secret-notifier") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n"
                + "  - {name: chat, type: slack, url: 'https://hooks.example/services/HOOK-SECRET-8',"
                + " headers: {Authorization: 'Bearer HEADER-SECRET-9'}}\n");
        Path config = Files.writeString(dir.resolve("notifier.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nschema.registry.url=" + registryUrlWithCredentials() + "\ntopic.prefix=" + topics.prefix()
                + "\nhttp.host=127.0.0.1\nhttp.port=0\nroutes.file=" + routes + "\n"
                + "schema.registry.basic.auth.allow.insecure.http=true\n" // the test registry is plain http
                + kafkaSecrets());
        CliRun run = CliRun.of("notifier", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(captured.toString()).contains("notifier started").contains("***@");
        assertNoSecret(run);
    }

    @Test
    void everyRoleRefusesBadSettingsWithoutEchoingSecrets(@TempDir Path dir) throws IOException {
        Path badRoutes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n"
                + "  - {name: chat, type: slack, url: 'hooks.example/services/HOOK-SECRET-8',"
                + " headers: {Authorization: \"Bearer HEADER-SECRET-9\\r\\nX: 1\"}}\n");
        String common = "bootstrap.servers=" + kafka.bootstrapServers() + "\nschema.registry.url="
                + registryUrlWithCredentials() + "\nbasic.auth.user.info=reader:USERINFO-SECRET-5\nhttp.port=99999\n"
                + "http.token=short TOKEN-SECRET-10\n" + kafkaSecrets();
        List<List<String>> roles = List.of(
                List.of("prober", "region=it\nregion.bogus=1\n"),
                List.of("aggregator", "partitions=0\n"),
                List.of("notifier", "routes.file=" + badRoutes + "\n"),
                List.of("registry", "registry.users=admin:superuser:ADMIN-SECRET-7\nregistry.auth=maybe\n"));
        for (List<String> role : roles) {
            Path config = Files.writeString(dir.resolve(role.get(0) + ".properties"), common + role.get(1));
            CliRun run = CliRun.of(role.get(0), "--config", config.toString(), "--duration", "1s");
            assertThat(run.exitCode()).as(role.get(0) + ": " + run.err()).isEqualTo(2);
            String everything = captured + "\n" + run.out() + "\n" + run.err();
            for (String secret : SECRETS) {
                assertThat(everything).as(role.get(0) + " output contains " + secret).doesNotContain(secret);
            }
        }
    }
}
