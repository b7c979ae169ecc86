package io.healthmesh.cli.roles;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh aggregator}: an aggregator instance (Kafka Streams: thresholds, quorum, fail-open, state events). */
@Command(name = "aggregator", mixinStandardHelpOptions = true,
        description = "Run an aggregator instance: probe results to target and group state events.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, application.id, "
                + "state.dir, http.port, ... and kafka.* (see docs/CONFIGURATION.md)."})
public final class AggregatorCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return AggregatorWorker.start(AggregatorConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        AggregatorWorker w = (AggregatorWorker) worker;
        return "aggregator running: Kafka Streams " + w.state() + ", /metrics /healthz /readyz and queries on port "
                + w.httpPort();
    }
}
