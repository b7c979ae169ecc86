package io.healthmesh.haproxy;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The driver's metrics, per HAProxy instance (label {@code instance}, the Runtime API address): commands applied
 * and failed, the time of the last successful pass, changes waiting for the change budget, mapped backends HAProxy
 * does not have. The follower adds its own ({@code healthmesh_haproxy_follow_*}: lag, records, caught up).
 */
public final class HaproxyMetrics {

    public static final String PREFIX = "healthmesh_haproxy";

    private final Counter applied;
    private final Counter failed;
    private final Gauge lastSuccess;
    private final Gauge queued;
    private final Gauge unknownBackends;

    public HaproxyMetrics(PrometheusRegistry registry, List<String> instances) {
        requireNonNull(registry, "registry");
        applied = Counter.builder().name(PREFIX + "_applied")
                .help("Runtime API commands HAProxy accepted (add, del, set server state/weight/addr).")
                .labelNames("instance").register(registry);
        failed = Counter.builder().name(PREFIX + "_failed")
                .help("Runtime API commands HAProxy refused, and passes that could not reach the socket.")
                .labelNames("instance").register(registry);
        lastSuccess = Gauge.builder().name(PREFIX + "_last_success_seconds")
                .help("Unix time of the last pass that read and reconciled every mapped backend it could.")
                .labelNames("instance").register(registry);
        queued = Gauge.builder().name(PREFIX + "_queued_changes")
                .help("Changes taking servers out of service that wait for the change budget.")
                .labelNames("instance").register(registry);
        unknownBackends = Gauge.builder().name(PREFIX + "_unknown_backends")
                .help("Mapped backends the instance does not have (left out until its config has them).")
                .labelNames("instance").register(registry);
        for (String instance : instances) {
            applied.labelValues(instance);
            failed.labelValues(instance);
            lastSuccess.labelValues(instance);
            queued.labelValues(instance);
            unknownBackends.labelValues(instance);
        }
    }

    void applied(String instance) {
        applied.labelValues(instance).inc();
    }

    void failed(String instance) {
        failed.labelValues(instance).inc();
    }

    void succeeded(String instance, long epochMillis, int queuedChanges, int unknown) {
        lastSuccess.labelValues(instance).set(epochMillis / 1000.0);
        queued.labelValues(instance).set(queuedChanges);
        unknownBackends.labelValues(instance).set(unknown);
    }

    double appliedCount(String instance) {
        return applied.labelValues(instance).get();
    }

    double failedCount(String instance) {
        return failed.labelValues(instance).get();
    }
}
