package io.healthmesh.cli.roles;

import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh prober}: a prober worker (probes its share of the targets of its region). */
@Command(name = "prober", mixinStandardHelpOptions = true,
        description = "Run a prober worker: probe the targets assigned to this region's consumer group.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY> with dots as underscores): bootstrap.servers, "
                + "schema.registry.url, region, prober.id, http.port, ... and kafka.* (see docs/CONFIGURATION.md)."})
public final class ProberCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return ProberWorker.start(ProberConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        ProberWorker w = (ProberWorker) worker;
        return "prober " + w.config().proberId() + " running: region " + w.config().region() + ", Kafka "
                + w.config().bootstrapServers() + ", /metrics /healthz /readyz on port " + w.opsPort();
    }
}
