package io.healthmesh.cli.roles;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.dnsfollow.DnsFollowConfig;
import io.healthmesh.dnsfollow.DnsFollowWorker;
import io.healthmesh.haproxy.HaproxyConfig;
import io.healthmesh.haproxy.HaproxyWorker;
import io.healthmesh.notifier.NotifierConfig;
import io.healthmesh.notifier.NotifierWorker;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.status.StatusConfig;
import io.healthmesh.status.StatusWorker;
import io.healthmesh.xds.XdsConfig;
import io.healthmesh.xds.XdsWorker;
import picocli.CommandLine;

import java.util.List;

/** The worker roles of {@code healthmesh}, one row each, in the order {@code --help} lists them. */
public final class Roles {

    /** Every role. */
    public static final List<Role<?>> ALL = List.of(
            new Role<>("prober", "Run a prober worker: probe the targets assigned to this region's consumer group.",
                    "bootstrap.servers, schema.registry.url, region, prober.id, http.port",
                    s -> ProberWorker.start(ProberConfig.from(s)),
                    w -> "prober " + w.config().proberId() + " running: region " + w.config().region() + ", Kafka "
                            + w.config().bootstrapServers() + ", /metrics /healthz /readyz on port " + w.opsPort()),
            new Role<>("aggregator", "Run an aggregator instance: probe results to target and group state events.",
                    "bootstrap.servers, schema.registry.url, application.id, state.dir, http.port",
                    s -> AggregatorWorker.start(AggregatorConfig.from(s)),
                    w -> "aggregator running: Kafka Streams " + w.state()
                            + ", /metrics /healthz /readyz and queries on port " + w.httpPort()),
            new Role<>("notifier", "Run a notifier instance: target and group state events to the routes of a route "
                    + "file.", "bootstrap.servers, schema.registry.url, routes.file, group.id, http.port",
                    s -> NotifierWorker.start(NotifierConfig.from(s)),
                    w -> "notifier running: /metrics /healthz /readyz on port " + w.httpPort()),
            new Role<>("status", "Run the status page on its own: every target and group, live, from the output "
                    + "topics.", "bootstrap.servers, schema.registry.url, http.port, status.history.size, http.token",
                    s -> StatusWorker.start(StatusConfig.from(s)),
                    w -> "status page running: /status/ on port " + w.httpPort()
                            + ", /metrics /healthz /readyz on port " + w.opsPort()),
            new Role<>("xds", "Run an xDS server (ADS: clusters and endpoints, state-of-the-world and delta) that "
                    + "makes Envoy proxies and gRPC clients route to each group's routable set.",
                    "bootstrap.servers, schema.registry.url, xds.port, xds.ssl.*, clusters.file, http.port",
                    s -> XdsWorker.start(XdsConfig.from(s)),
                    w -> "xds running: xDS (gRPC) on port " + w.xdsPort() + ", /metrics /healthz /readyz on port "
                            + w.httpPort()),
            new Role<>("haproxy", "Run a HAProxy driver: the servers of mapped backends follow the groups' routable "
                    + "sets.", "bootstrap.servers, schema.registry.url, mapping.file, reconcile.interval.ms",
                    s -> HaproxyWorker.start(HaproxyConfig.from(s)),
                    w -> "haproxy driver running: /metrics /healthz /readyz on port " + w.httpPort()),
            new Role<>("dns", "Run the dns role: keep the DNS names of a mapping file answering their groups' served "
                    + "members, by RFC 2136 updates signed with TSIG.",
                    "bootstrap.servers, schema.registry.url, mapping.file, changes.per.second",
                    s -> DnsFollowWorker.start(DnsFollowConfig.from(s)),
                    w -> "dns running: /metrics /healthz /readyz on port " + w.httpPort()),
            new Role<>("registry", "Run the schema registry (Confluent-compatible REST API, schemas in a compacted "
                    + "topic).", "bootstrap.servers, registry.topic, http.host, http.port",
                    s -> SchemaRegistryServer.start(RegistryConfig.from(s)),
                    w -> "schema registry running at " + w.url()));

    private Roles() {
    }

    /** Adds one subcommand per role to {@code parent}. */
    public static void addTo(CommandLine parent) {
        for (Role<?> role : ALL) {
            CommandLine command = new CommandLine(new RoleCommand(role));
            command.getCommandSpec().name(role.name());
            command.getCommandSpec().usageMessage()
                    .description(role.description())
                    .footer("", "Settings (file or HEALTHMESH_<KEY>, dots as underscores): " + role.settings()
                            + " ... and kafka.* (every one in docs/CONFIGURATION.md).");
            parent.addSubcommand(role.name(), command);
        }
    }
}
