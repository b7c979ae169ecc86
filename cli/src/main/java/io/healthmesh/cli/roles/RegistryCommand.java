package io.healthmesh.cli.roles;

import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.registry.SchemaRegistryServer;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh registry}: the Confluent-compatible schema registry, schemas kept in a compacted topic. */
@Command(name = "registry", mixinStandardHelpOptions = true,
        description = "Run the schema registry (Confluent-compatible REST API, schemas in a compacted topic).",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, registry.topic, http.host, "
                + "http.port and kafka.* (see docs/CONFIGURATION.md)."})
public final class RegistryCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return SchemaRegistryServer.start(RegistryConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        return "schema registry running at " + ((SchemaRegistryServer) worker).url();
    }
}
