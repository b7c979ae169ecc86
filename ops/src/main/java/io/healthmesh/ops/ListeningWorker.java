package io.healthmesh.ops;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;

/**
 * A running worker role that has bound listeners: what the command that started it announces on the endpoints
 * topic, so that every prober denies them (docs/SECURITY.md, "Egress policy"). Every role implements it; the
 * announcement is written in one place, by the role's command.
 */
public interface ListeningWorker {

    /** The role's listeners as bound: the configured host (perhaps a wildcard) and the bound port. */
    List<BoundListener> boundListeners();

    /** Where the role's metrics are, for the announcement's own. */
    PrometheusRegistry metrics();

    /** The topic prefixes whose endpoints topic the role announces on (its {@code topic.prefix}). */
    List<String> topicPrefixes();

    /**
     * One bound listener.
     *
     * @param name what it serves ({@code http}, {@code ops}, {@code xds}...)
     * @param host the address it is bound to as configured: a literal, a name, or a wildcard ({@code 0.0.0.0},
     *             {@code ::})
     * @param port the bound port
     */
    record BoundListener(String name, String host, int port) {
    }
}
