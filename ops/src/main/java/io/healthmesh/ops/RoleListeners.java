package io.healthmesh.ops;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.BooleanSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The HTTP listeners of a role that serves routes of its own (the aggregator's query API, the status page): one
 * listener at {@code http.host:http.port} with the routes, under {@code http.token}, and the ops endpoints either on
 * it or, when {@code ops.port} is set, on a listener of their own under {@code ops.token}. Both take
 * {@link HttpOptions#limits()}.
 */
public final class RoleListeners implements AutoCloseable {

    private final OpsServer api;
    private final OpsServer ops;
    private final String apiHost;
    private final String opsHost;

    private RoleListeners(OpsServer api, OpsServer ops, String apiHost, String opsHost) {
        this.api = api;
        this.ops = ops;
        this.apiHost = apiHost;
        this.opsHost = opsHost;
    }

    /**
     * Binds the listeners.
     *
     * @param name the role, for the servers' thread names ({@code <name>-http}, {@code <name>-ops})
     * @throws UncheckedIOException when an address cannot be bound
     */
    public static RoleListeners start(String name, String host, int port, HttpOptions http, PrometheusRegistry registry,
                                      BooleanSupplier ready) {
        requireNonNull(name, "name");
        requireNonNull(host, "host");
        requireNonNull(http, "http");
        requireNonNull(registry, "registry");
        requireNonNull(ready, "ready");
        try {
            OpsServer.Builder apiServer = OpsServer.builder(new InetSocketAddress(host, port))
                    .limits(http.limits()).routeToken(http.apiToken()).name(name + "-http");
            if (!http.separateOps()) {
                OpsServer both = apiServer.ops(registry, ready).opsToken(http.opsToken()).start();
                return new RoleListeners(both, both, host, host);
            }
            OpsServer api = apiServer.start();
            try {
                String opsHost = http.opsHost() != null ? http.opsHost() : host;
                OpsServer ops = OpsServer.builder(new InetSocketAddress(opsHost, http.opsPort())).limits(http.limits()).ops(registry, ready).opsToken(http.opsToken())
                        .name(name + "-ops").start();
                return new RoleListeners(api, ops, host, opsHost);
            } catch (IOException | RuntimeException e) {
                api.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the " + name + "'s HTTP listeners: " + e.getMessage(), e);
        }
    }

    /** The listener of the routes (and of the ops endpoints unless they have their own). */
    public OpsServer api() {
        return api;
    }

    /** The listener of {@code /metrics}, {@code /healthz} and {@code /readyz}; {@link #api()} when shared. */
    public OpsServer ops() {
        return ops;
    }

    /** Both listeners as bound ({@code http}, and {@code ops} when it has its own), for the endpoints announcement. */
    public List<ListeningWorker.BoundListener> bound() {
        return ops == api ? List.of(new ListeningWorker.BoundListener("http", apiHost, api.port()))
                : List.of(new ListeningWorker.BoundListener("http", apiHost, api.port()),
                new ListeningWorker.BoundListener("ops", opsHost, ops.port()));
    }

    @Override
    public void close() {
        try {
            api.close();
        } finally {
            if (ops != api) {
                ops.close();
            }
        }
    }
}
