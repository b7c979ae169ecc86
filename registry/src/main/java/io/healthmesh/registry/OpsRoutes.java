package io.healthmesh.registry;

import io.healthmesh.ops.MetricsText;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The operations endpoints every healthmesh worker has, served on the registry's own port (they are
 * not paths of Confluent's API): {@code /metrics} (Prometheus text), {@code /healthz} and
 * {@code /readyz} (the registry listens only once its topic is replayed, so it is ready when it answers).
 */
final class OpsRoutes {

    /**
     * The methods counted by name. A client chooses the method before it is authenticated, so any other name shares
     * one label value: a label per name would let anyone grow the registry's memory without bound.
     */
    static final java.util.Set<String> METHODS = java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH");

    private final PrometheusRegistry metrics = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name("healthmesh_registry_requests_total")
            .help("Registry API requests by method and HTTP status.")
            .labelNames("method", "status")
            .register(metrics);

    /** The registry of the metrics {@code /metrics} shows. */
    PrometheusRegistry metrics() {
        return metrics;
    }

    /** The answer of an operations path, or empty for any other request. */
    Optional<ApiResponse> answer(String method, List<String> path) {
        if (!method.equals("GET") || path.size() != 1) {
            return Optional.empty();
        }
        return probe(path).or(() -> path.get(0).equals("metrics")
                ? Optional.of(ApiResponse.text(200, MetricsText.CONTENT_TYPE, MetricsText.scrape(metrics)))
                : Optional.empty());
    }

    /** The answer of {@code /healthz} or {@code /readyz}, which need no thread; empty for any other path. */
    static Optional<ApiResponse> probe(List<String> path) {
        if (path.size() != 1) {
            return Optional.empty();
        }
        return switch (path.get(0)) {
            case "healthz" -> Optional.of(ApiResponse.text(200, "text/plain", "ok\n".getBytes(StandardCharsets.UTF_8)));
            case "readyz" -> Optional.of(ApiResponse.text(200, "text/plain", "ready\n".getBytes(StandardCharsets.UTF_8)));
            default -> Optional.empty();
        };
    }

    /** Counts one answered API request; a method outside {@link #METHODS} counts as {@code other}. */
    void count(String method, int status) {
        requests.labelValues(METHODS.contains(method) ? method : "other", Integer.toString(status)).inc();
    }
}
