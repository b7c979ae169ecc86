package io.healthmesh.cli.roles;

import io.healthmesh.status.StatusConfig;
import io.healthmesh.status.StatusWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh status}: the status page on its own (the aggregators then need not serve it). */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Run the status page on its own: every target and group, live, from the output topics.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, http.port, "
                + "status.history.size, status.max.clients, http.token ... and kafka.* (see docs/CONFIGURATION.md)."})
public final class StatusCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return StatusWorker.start(StatusConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        StatusWorker w = (StatusWorker) worker;
        return "status page running: /status/ on port " + w.httpPort() + ", /metrics /healthz /readyz on port "
                + w.opsPort();
    }
}
