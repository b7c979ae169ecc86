package io.healthmesh.xds;

import io.envoyproxy.controlplane.cache.Resources;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.function.LongSupplier;

/**
 * The xds role's own metrics ({@code healthmesh_xds_*}; the follower adds {@code healthmesh_xds_follow_*}, lag
 * included): open client streams, pushes and NACKs by resource type and protocol, refused streams, what is served,
 * and how long turning a state change into snapshots takes.
 */
final class XdsMetrics {

    static final String PREFIX = "healthmesh_xds";

    private final Counter pushes;
    private final Counter nacks;
    private final Counter refused;
    private final Counter updates;
    private final Histogram updateSeconds;

    XdsMetrics(PrometheusRegistry registry, LongSupplier clients, LongSupplier groups, LongSupplier endpoints,
               LongSupplier skipped) {
        GaugeWithCallback.builder().name(PREFIX + "_clients")
                .help("Open xDS streams (an Envoy or a gRPC channel holds one ADS stream).")
                .callback(cb -> cb.call(clients.getAsLong())).register(registry);
        pushes = Counter.builder().name(PREFIX + "_pushes")
                .help("Responses sent to clients, by resource type and protocol (sotw or delta).")
                .labelNames("type", "protocol").register(registry);
        nacks = Counter.builder().name(PREFIX + "_nacks")
                .help("Responses a client rejected (NACK), by resource type and protocol; each is logged with the "
                        + "client's error detail.")
                .labelNames("type", "protocol").register(registry);
        refused = Counter.builder().name(PREFIX + "_refused_streams")
                .help("Streams refused because xds.max.streams were open.").register(registry);
        updates = Counter.builder().name(PREFIX + "_snapshot_updates")
                .help("Times a state change gave new snapshots to serve.").register(registry);
        updateSeconds = Histogram.builder().name(PREFIX + "_snapshot_update_seconds")
                .help("Time from the follower's state change to the new snapshots handed to the cache (pushes "
                        + "included).")
                .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)
                .register(registry);
        GaugeWithCallback.builder().name(PREFIX + "_groups").help("Groups served as clusters.")
                .callback(cb -> cb.call(groups.getAsLong())).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "_endpoints").help("Endpoints in the served assignments.")
                .callback(cb -> cb.call(endpoints.getAsLong())).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "_endpoints_skipped")
                .help("Members left out of their assignment because their address is a host name, not an IP.")
                .callback(cb -> cb.call(skipped.getAsLong())).register(registry);
    }

    void pushed(String typeUrl, String protocol) {
        pushes.labelValues(shortType(typeUrl), protocol).inc();
    }

    void nacked(String typeUrl, String protocol) {
        nacks.labelValues(shortType(typeUrl), protocol).inc();
    }

    void refused() {
        refused.inc();
    }

    void updated(double seconds) {
        updates.inc();
        updateSeconds.observe(seconds);
    }

    /** {@code eds}, {@code cds}, {@code lds}, or {@code other}: a bounded label whatever a client asks for. */
    static String shortType(String typeUrl) {
        if (Resources.V3.ENDPOINT_TYPE_URL.equals(typeUrl)) {
            return "eds";
        }
        if (Resources.V3.CLUSTER_TYPE_URL.equals(typeUrl)) {
            return "cds";
        }
        if (Resources.V3.LISTENER_TYPE_URL.equals(typeUrl)) {
            return "lds";
        }
        return "other";
    }
}
