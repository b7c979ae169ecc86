package io.healthmesh.status;

import io.healthmesh.status.board.GroupRow;
import io.healthmesh.status.board.StatusBoard;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

import static java.util.Objects.requireNonNull;

/**
 * Gauges read from the {@link StatusBoard} at scrape time: per group (members, healthy, unhealthy, routable,
 * fail-open), stale targets per region, and, when enabled, per target (healthy, last latency). Every instance
 * serving the page reads every partition for its board, so each exports every group: aggregate with
 * {@code max by (group)}.
 */
public final class StatusMetrics {

    private StatusMetrics() {
    }

    /**
     * Registers the gauges.
     *
     * @param perTarget also export {@code healthmesh_target_*} (one series per target: mind the cardinality)
     * @param skipped records the status feed could not decode
     * @param lookbackSkipped probe results the status feed passed over as older than its lookback
     * @param clients browsers connected to the status page
     */
    public static void register(PrometheusRegistry registry, StatusBoard board, boolean perTarget,
                                LongSupplier skipped, LongSupplier lookbackSkipped, LongSupplier clients) {
        requireNonNull(registry, "registry");
        requireNonNull(board, "board");
        group(registry, board, "healthmesh_group_members", "Members of the group.", GroupRow::members);
        group(registry, board, "healthmesh_group_healthy", "Members HEALTHY.", GroupRow::healthy);
        group(registry, board, "healthmesh_group_unhealthy", "Members UNHEALTHY.", GroupRow::unhealthy);
        group(registry, board, "healthmesh_group_routable",
                "Members routed to, per the group's last state event.", GroupRow::routable);
        group(registry, board, "healthmesh_group_fail_open",
                "1 when no member is HEALTHY or DISABLED and every member is routed to (fail-open).",
                g -> g.isFailOpen() ? 1 : 0);
        GaugeWithCallback.builder().name("healthmesh_region_stale_targets")
                .help("Targets for which the region sent no result for the staleness window (regions with one or "
                        + "more only).")
                .labelNames("region")
                .callback(cb -> board.staleRegions().forEach((region, n) -> cb.call(n, region)))
                .register(registry);
        CounterWithCallback.builder().name("healthmesh_status_feed_skipped_records")
                .help("Records the status page's feed could not decode and skipped.")
                .callback(cb -> cb.call(skipped.getAsLong()))
                .register(registry);
        CounterWithCallback.builder().name("healthmesh_status_feed_lookback_skipped_records")
                .help("Probe results the status page's feed did not decode because they were older than its "
                        + "lookback (read and passed over, or jumped by seeking forward).")
                .callback(cb -> cb.call(lookbackSkipped.getAsLong()))
                .register(registry);
        GaugeWithCallback.builder().name("healthmesh_status_page_clients")
                .help("Browsers connected to the status page's event stream.")
                .callback(cb -> cb.call(clients.getAsLong()))
                .register(registry);
        if (perTarget) {
            GaugeWithCallback.builder().name("healthmesh_target_healthy")
                    .help("1 when the target is HEALTHY, else 0.")
                    .labelNames("target", "group")
                    .callback(cb -> board.targets().forEach(t ->
                            cb.call("HEALTHY".equals(t.status()) ? 1 : 0, t.id(), t.group())))
                    .register(registry);
            GaugeWithCallback.builder().name("healthmesh_target_latency_seconds")
                    .help("Latency of the last probe applied to the target.")
                    .labelNames("target", "group")
                    .callback(cb -> board.targets().forEach(t -> {
                        if (t.latencyMicros() != null) {
                            cb.call(t.latencyMicros() / 1e6, t.id(), t.group());
                        }
                    }))
                    .register(registry);
        }
    }

    private static void group(PrometheusRegistry registry, StatusBoard board, String name, String help,
                              ToIntFunction<GroupRow> value) {
        GaugeWithCallback.builder().name(name).help(help).labelNames("group")
                .callback(cb -> board.groups().forEach(g -> cb.call(value.applyAsInt(g), g.id())))
                .register(registry);
    }
}
