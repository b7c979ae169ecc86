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

    private final PrometheusRegistry metrics = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name("healthmesh_registry_requests_total")
            .help("Registry API requests by method and HTTP status.")
            .labelNames("method", "status")
            .register(metrics);

    /** The answer of an operations path, or empty for any other request. */
    Optional<ApiResponse> answer(String method, List<String> path) {
        if (!method.equals("GET") || path.size() != 1) {
            return Optional.empty();
        }
        return switch (path.get(0)) {
            case "healthz" -> Optional.of(ApiResponse.text(200, "text/plain", "ok\n".getBytes(StandardCharsets.UTF_8)));
            case "readyz" -> Optional.of(ApiResponse.text(200, "text/plain", "ready\n".getBytes(StandardCharsets.UTF_8)));
            case "metrics" -> Optional.of(ApiResponse.text(200, MetricsText.CONTENT_TYPE, MetricsText.scrape(metrics)));
            default -> Optional.empty();
        };
    }

    /** Counts one answered API request. */
    void count(String method, int status) {
        requests.labelValues(method, Integer.toString(status)).inc();
    }
}
