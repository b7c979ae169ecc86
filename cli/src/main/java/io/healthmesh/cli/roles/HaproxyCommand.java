package io.healthmesh.cli.roles;

import io.healthmesh.haproxy.HaproxyConfig;
import io.healthmesh.haproxy.HaproxyWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh haproxy}: keeps HAProxy backends equal to the groups' routable sets through the Runtime API. */
@Command(name = "haproxy", mixinStandardHelpOptions = true,
        description = "Run a HAProxy driver: the servers of mapped backends follow the groups' routable sets.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, mapping.file, "
                + "http.port, reconcile.interval.ms, changes.per.second ... and kafka.* (see docs/CONFIGURATION.md)."})
public final class HaproxyCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return HaproxyWorker.start(HaproxyConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        HaproxyWorker w = (HaproxyWorker) worker;
        return "haproxy driver running: /metrics /healthz /readyz on port " + w.httpPort();
    }
}
