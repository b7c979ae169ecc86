package io.healthmesh.cli.roles;

import io.healthmesh.dnsfollow.DnsFollowConfig;
import io.healthmesh.dnsfollow.DnsFollowWorker;
import picocli.CommandLine.Command;

import java.util.Map;

/** {@code healthmesh dns}: keeps DNS names answering their groups' served members (RFC 2136 updates with TSIG). */
@Command(name = "dns", mixinStandardHelpOptions = true,
        description = "Run the dns role: keep the DNS names of a mapping file answering their groups' served members,"
                + " by RFC 2136 updates signed with TSIG.",
        footer = {"", "Settings (file or HEALTHMESH_<KEY>): bootstrap.servers, schema.registry.url, mapping.file, "
                + "reconcile.interval.ms, changes.per.second, changes.burst ... and kafka.* (see docs/CONFIGURATION.md"
                + " and docs/operations/dns.md)."})
public final class DnsCommand extends WorkerRole {

    @Override
    AutoCloseable start(Map<String, String> settings) {
        return DnsFollowWorker.start(DnsFollowConfig.from(settings));
    }

    @Override
    String started(AutoCloseable worker) {
        DnsFollowWorker w = (DnsFollowWorker) worker;
        return "dns running: /metrics /healthz /readyz on port " + w.httpPort();
    }
}
