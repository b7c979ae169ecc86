package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.update.DnsUpdateException;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The dns role's own metrics (the follower adds {@code healthmesh_dns_follow_*}, among them the lag): updates
 * applied, records changed, failures by reason, the time of the last pass that found every name in sync or brought
 * it there, names kept at their last set, members left out of a name, and changes waiting for the change budget.
 */
final class DnsFollowMetrics {

    private final Counter applied;
    private final Counter changed;
    private final Counter failed;
    private final Counter keptLast;
    private final Gauge lastSuccess;
    private final Gauge namesKeptLast;
    private final Gauge skipped;
    private final Gauge pending;

    DnsFollowMetrics(PrometheusRegistry registry) {
        requireNonNull(registry, "registry");
        applied = Counter.builder().name("healthmesh_dns_applied")
                .help("RFC 2136 updates the zones' primaries accepted (one per zone and pass with changes).")
                .register(registry);
        changed = Counter.builder().name("healthmesh_dns_records_changed")
                .help("Address records added or deleted by accepted updates, by op (add, delete).")
                .labelNames("op").register(registry);
        failed = Counter.builder().name("healthmesh_dns_failed")
                .help("Queries and updates that failed, by reason (unreachable, not_authoritative, refused, badkey,"
                        + " badsig, badtime, unsigned_answer, servfail, other).")
                .labelNames("reason").register(registry);
        keptLast = Counter.builder().name("healthmesh_dns_kept_last")
                .help("Times a name's target became empty and its last non-empty set was kept (once per episode).")
                .register(registry);
        lastSuccess = Gauge.builder().name("healthmesh_dns_last_success_seconds")
                .help("Unix time of the last reconcile pass in which every name it looked at was in sync or updated"
                        + " (0 before the first).")
                .register(registry);
        namesKeptLast = Gauge.builder().name("healthmesh_dns_names_kept_last")
                .help("Names whose target is empty now, held at their last non-empty set.").register(registry);
        skipped = Gauge.builder().name("healthmesh_dns_members_skipped")
                .help("Served members left out of their names at the last pass, by reason (host_name: the address is"
                        + " not an IP literal; other_family: the name holds no record type for its family).")
                .labelNames("reason").register(registry);
        pending = Gauge.builder().name("healthmesh_dns_pending_changes")
                .help("Record changes waiting for the change budget after the last pass.").register(registry);
        for (DnsUpdateException.Reason r : DnsUpdateException.Reason.values()) {
            failed.labelValues(r.label());
        }
        for (RecordChange.Op op : RecordChange.Op.values()) {
            changed.labelValues(op.name().toLowerCase(Locale.ROOT));
        }
        skipped.labelValues("host_name");
        skipped.labelValues("other_family");
    }

    void applied(Iterable<RecordChange> changes) {
        applied.inc();
        for (RecordChange c : changes) {
            changed.labelValues(c.op().name().toLowerCase(Locale.ROOT)).inc();
        }
    }

    void failed(DnsUpdateException.Reason reason) {
        failed.labelValues(reason.label()).inc();
    }

    void keptLastEpisode() {
        keptLast.inc();
    }

    void passSucceeded(long epochMillis) {
        lastSuccess.set(epochMillis / 1000.0);
    }

    void namesKeptLast(int names) {
        namesKeptLast.set(names);
    }

    void skipped(int hostNames, int otherFamily) {
        skipped.labelValues("host_name").set(hostNames);
        skipped.labelValues("other_family").set(otherFamily);
    }

    void pending(int changes) {
        pending.set(changes);
    }
}
