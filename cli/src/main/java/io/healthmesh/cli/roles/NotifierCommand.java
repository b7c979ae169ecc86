package io.healthmesh.cli.roles;

import io.healthmesh.notifier.NotifierConfig;
import io.healthmesh.notifier.NotifierWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh notifier}: a notifier instance (state events to webhook, Slack and Alertmanager routes). */
@Command(name = "notifier", mixinStandardHelpOptions = true,
        description = "Run a notifier instance: target and group state events to the routes of a route file.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, routes.file, "
                + "group.id, http.port, retry.initial.ms, retry.max.ms ... and kafka.* (see docs/CONFIGURATION.md)."})
public final class NotifierCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return NotifierWorker.start(NotifierConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        NotifierWorker w = (NotifierWorker) worker;
        return "notifier running: /metrics /healthz /readyz on port " + w.httpPort();
    }
}
