package io.healthmesh.cli.roles;

import io.healthmesh.xds.XdsConfig;
import io.healthmesh.xds.XdsWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh xds}: an xDS control plane serving each group's routable set to Envoy proxies and gRPC clients. */
@Command(name = "xds", mixinStandardHelpOptions = true,
        description = "Run an xDS server (ADS: clusters and endpoints, state-of-the-world and delta) that makes Envoy "
                + "proxies and gRPC clients route to each group's routable set.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, xds.port, "
                + "xds.ssl.*, clusters.file, http.port ... and kafka.* (see docs/CONFIGURATION.md, "
                + "docs/operations/xds.md)."})
public final class XdsCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return XdsWorker.start(XdsConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        XdsWorker w = (XdsWorker) worker;
        return "xds running: xDS (gRPC) on port " + w.xdsPort() + ", /metrics /healthz /readyz on port " + w.httpPort();
    }
}
