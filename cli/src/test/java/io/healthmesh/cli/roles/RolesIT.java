package io.healthmesh.cli.roles;

import io.healthmesh.cli.CliRun;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.testkit.TopicReads;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The worker roles start on a real broker from a settings file, run for a bounded time and stop cleanly. */
@ExtendWith(KafkaExtension.class)
class RolesIT {

    private final TestKafka kafka;

    RolesIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    @Test
    void registryRoleServesAndStops(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("registry.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nregistry.topic=" + kafka.uniqueTopic("schemas") + "\nhttp.host=127.0.0.1\nhttp.port=0\n"
                + "registry.users=admin:admin:roles-it-admin-pw,worker:read:roles-it-worker-pw\n");
        CliRun run = CliRun.of("registry", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("schema registry running at http://127\\.0\\.0\\.1:\\d+")
                .contains("registry: stopped");
        assertThat(run.out() + run.err()).doesNotContain("roles-it-admin-pw").doesNotContain("roles-it-worker-pw");
    }

    @Test
    void registryRoleRefusesToStartWithoutUsers(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("registry.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nregistry.host=127.0.0.1\nregistry.port=0\n");
        CliRun run = CliRun.of("registry", "--config", config.toString(), "--duration", "2s");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("registry.users: none");
    }

    @Test
    void proberRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("prober") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        Path config = Files.writeString(dir.resolve("prober.properties"), "bootstrap.servers=" + kafka.bootstrapServers()
                + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix=" + topics.prefix()
                + "\nhttp.host=127.0.0.1\nhttp.port=0\nregion=it\n");
        CliRun run = CliRun.of("prober", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("running: region it").contains("prober: stopped");
    }

    @Test
    void aggregatorRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("aggregator") + ".");
        Path config = Files.writeString(dir.resolve("aggregator.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix="
                + topics.prefix() + "\napplication.id=" + kafka.uniqueTopic("app") + "\nstate.dir="
                + dir.resolve("state") + "\nhttp.host=127.0.0.1\nhttp.port=0\npartitions=2\n"
                + "replication.factor=1\nreplication.single.copy.allowed=true\n");
        CliRun run = CliRun.of("aggregator", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("aggregator running").contains("aggregator: stopped");
    }

    @Test
    void notifierRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("notifier") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes: [{name: hook, type: webhook, url: 'http://127.0.0.1:9/'}]\n");
        Path config = Files.writeString(dir.resolve("notifier.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix="
                + topics.prefix() + "\ngroup.id=" + kafka.uniqueTopic("notifier-group") + "\nroutes.file=" + routes
                + "\nhttp.host=127.0.0.1\nhttp.port=0\n");
        CliRun run = CliRun.of("notifier", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("notifier running: /metrics /healthz /readyz on port \\d+")
                .contains("notifier: stopped");
    }

    @Test
    void statusRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("status") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        Path config = Files.writeString(dir.resolve("status.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix="
                + topics.prefix() + "\nhttp.host=127.0.0.1\nhttp.port=0\nstatus.history.size=0\n");
        CliRun run = CliRun.of("status", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("status page running: /status/ on port \\d+")
                .contains("status: stopped");
        // the command announced the role's listener on the endpoints topic, and withdrew it when it stopped
        java.util.regex.Matcher port = java.util.regex.Pattern.compile("on port (\\d+)").matcher(run.out());
        assertThat(port.find()).isTrue();
        List<TopicReads.KeyValue> announced = TopicReads.readAll(kafka.bootstrapServers(), topics.endpoints());
        assertThat(announced).as("announcement, then tombstone").hasSizeGreaterThanOrEqualTo(2);
        assertThat(announced.get(0).key()).startsWith("status@").endsWith(":" + port.group(1));
        assertThat(announced.get(0).value()).isNotNull();
        assertThat(announced.get(announced.size() - 1).value()).isNull();
    }

    @Test
    void haproxyRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("haproxy") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        // no HAProxy listens there: the driver runs, retries, and stops cleanly
        Path mapping = Files.writeString(dir.resolve("mapping.yaml"),
                "instances: ['" + dir.resolve("absent.sock") + "']\nbackends: [{group: api, backend: be_api}]\n");
        Path config = Files.writeString(dir.resolve("haproxy.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix="
                + topics.prefix() + "\nmapping.file=" + mapping + "\nhttp.host=127.0.0.1\nhttp.port=0\n");
        CliRun run = CliRun.of("haproxy", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("haproxy driver running: /metrics /healthz /readyz on port \\d+")
                .contains("haproxy: stopped");
    }

    @Test
    void xdsRoleRunsAndStops(@TempDir Path dir) throws IOException {
        Topics topics = new Topics(kafka.uniqueTopic("xds") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        Path config = Files.writeString(dir.resolve("xds.properties"), "bootstrap.servers="
                + kafka.bootstrapServers() + "\nschema.registry.url=" + kafka.schemaRegistryUrl() + "\ntopic.prefix="
                + topics.prefix() + "\nxds.host=127.0.0.1\nxds.port=0\nhttp.host=127.0.0.1\nhttp.port=0\n");
        CliRun run = CliRun.of("xds", "--config", config.toString(), "--duration", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("xds running: xDS \\(gRPC\\) on port \\d+, /metrics /healthz /readyz on port \\d+")
                .contains("xds: stopped");
    }
}
