package io.healthmesh.notifier;

import io.healthmesh.notifier.domain.Notification;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Locale;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The notifier's metrics, on the worker's own registry: per route, notifications delivered (by type), failed
 * attempts (by reason), notifications waiting, whether the head of the queue is being retried, the delivery lag
 * and open alerts; for the whole worker, records read, records that could not be decoded, and whether the targets
 * reader is waiting to retry (with its failed attempts).
 */
public final class NotifierMetrics {

    /** What a gauge callback reads, per route. */
    public interface RouteGauges {
        int pending(String route);

        boolean retrying(String route);

        /** Seconds since the oldest undelivered notification of the route became due; 0 when none waits. */
        double lagSeconds(String route);

        int openAlerts(String route);
    }

    private final Counter sent;
    private final Counter failed;
    private final Counter records;
    private final Counter undecodable;
    private final Counter targetsReadFailures;
    private final PrometheusRegistry registry;

    public NotifierMetrics(PrometheusRegistry registry, Iterable<String> routes, Supplier<RouteGauges> gauges) {
        this.registry = requireNonNull(registry, "registry");
        sent = Counter.builder().name("healthmesh_notifier_sent")
                .help("Notifications a receiver accepted (2xx), by route and type.")
                .labelNames("route", "type").register(registry);
        failed = Counter.builder().name("healthmesh_notifier_failed")
                .help("Delivery attempts that failed, by route and reason (error, status: retried; rejected: dropped).")
                .labelNames("route", "reason").register(registry);
        records = Counter.builder().name("healthmesh_notifier_records")
                .help("State records read from health-state and group-state.").register(registry);
        undecodable = Counter.builder().name("healthmesh_notifier_undecodable_records")
                .help("State or target records skipped because they could not be decoded.").register(registry);
        targetsReadFailures = Counter.builder().name("healthmesh_notifier_targets_read_failures")
                .help("Failed attempts to read the targets topic (missing topic, timeout, broker or registry error);"
                        + " each is retried with backoff.").register(registry);
        for (String route : routes) {
            for (Notification.Type type : Notification.Type.values()) {
                sent.labelValues(route, type.name().toLowerCase(Locale.ROOT));
            }
            for (String reason : new String[] {"error", "status", "rejected"}) {
                failed.labelValues(route, reason);
            }
        }
        GaugeWithCallback.builder().name("healthmesh_notifier_pending")
                .help("Notifications of the route waiting for delivery (queued or in flight).")
                .labelNames("route")
                .callback(cb -> routes.forEach(r -> cb.call(gauges.get().pending(r), r))).register(registry);
        GaugeWithCallback.builder().name("healthmesh_notifier_retrying")
                .help("1 while the route's next notification is being retried after a failure.")
                .labelNames("route")
                .callback(cb -> routes.forEach(r -> cb.call(gauges.get().retrying(r) ? 1 : 0, r))).register(registry);
        GaugeWithCallback.builder().name("healthmesh_notifier_lag_seconds")
                .help("Age of the route's oldest undelivered notification since it became due.")
                .labelNames("route")
                .callback(cb -> routes.forEach(r -> cb.call(gauges.get().lagSeconds(r), r))).register(registry);
        GaugeWithCallback.builder().name("healthmesh_notifier_open_alerts")
                .help("Alerts open on the route (firing, or waiting for the minimum duration).")
                .labelNames("route")
                .callback(cb -> routes.forEach(r -> cb.call(gauges.get().openAlerts(r), r))).register(registry);
    }

    public void sent(Notification n) {
        sent.labelValues(n.route(), n.type().name().toLowerCase(Locale.ROOT)).inc();
    }

    /** A failed attempt; {@code reason} is error, status or rejected. */
    public void failed(String route, String reason) {
        failed.labelValues(route, reason).inc();
    }

    public void record() {
        records.inc();
    }

    public void undecodable() {
        undecodable.inc();
    }

    /** A failed attempt to read the targets topic. */
    public void targetsReadFailed() {
        targetsReadFailures.inc();
    }

    /**
     * Registers the gauge of the targets reader: 1 while it waits (for the topic to exist, the broker, the
     * registry), 0 while it reads.
     *
     * @param waitingFor what the reader waits for, or null while it reads
     */
    public void targetsReader(Supplier<String> waitingFor) {
        requireNonNull(waitingFor, "waitingFor");
        GaugeWithCallback.builder().name("healthmesh_notifier_targets_waiting")
                .help("1 while the targets reader waits to retry (topic missing, broker or registry error).")
                .callback(cb -> cb.call(waitingFor.get() == null ? 0 : 1)).register(registry);
    }
}
