package io.healthmesh.status;

import io.healthmesh.ops.RoleListeners;
import io.healthmesh.ops.ListeningWorker;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * The {@code status} role: the status page ({@code /status/}) and its per-group gauges served on their own, so that
 * the aggregators need not hold every target of the fleet in their heaps. It reads the output topics the aggregators
 * write (and recent probe results); it writes nothing and joins no consumer group, so any number of instances can
 * run, each showing the whole fleet. Its listeners take the same limits and tokens as every role's
 * ({@link io.healthmesh.ops.HttpOptions}); {@code /readyz} is 200 once the feed reads every topic it shows.
 */
public final class StatusWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(StatusWorker.class);

    private final RoleListeners listeners;
    private final StatusService service;
    private final PrometheusRegistry registry;
    private final String topicPrefix;

    private StatusWorker(RoleListeners listeners, StatusService service, PrometheusRegistry registry,
                         String topicPrefix) {
        this.listeners = listeners;
        this.service = service;
        this.registry = registry;
        this.topicPrefix = topicPrefix;
    }

    /** Binds the listeners and starts the feed; returns at once (the feed waits for topics that do not exist yet). */
    public static StatusWorker start(StatusConfig config) {
        requireNonNull(config, "config");
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        AtomicReference<StatusService> running = new AtomicReference<>();
        RoleListeners listeners = RoleListeners.start("status", config.httpHost(), config.httpPort(), config.http(),
                registry, () -> running.get() != null && running.get().reading());
        try {
            running.set(StatusService.start(config.source().consumerSettings(), config.source().serdeConfig(), config.source().topics(), config.page(),
                    registry, listeners.api()));
        } catch (RuntimeException e) {
            listeners.close();
            throw e;
        }
        LOG.info("status page started: http port {}, ops port {}, {}", listeners.api().port(), listeners.ops().port(),
                config);
        return new StatusWorker(listeners, running.get(), registry, config.source().topics().prefix());
    }

    /** True once the feed reads every topic the page shows (what {@code /readyz} answers). */
    public boolean isReady() {
        return service.reading();
    }

    /** The bound port of the page (and of the ops endpoints unless {@code ops.port} is set). */
    public int httpPort() {
        return listeners.api().port();
    }

    /** The bound port of {@code /metrics}, {@code /healthz} and {@code /readyz}. */
    public int opsPort() {
        return listeners.ops().port();
    }

    @Override
    public List<BoundListener> boundListeners() {
        return listeners.bound();
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(topicPrefix);
    }

    /** Stops the feed and the browsers' streams, then the listeners. */
    @Override
    public void close() {
        try {
            service.close();
        } finally {
            listeners.close();
        }
    }
}
