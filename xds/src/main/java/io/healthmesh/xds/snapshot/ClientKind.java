package io.healthmesh.xds.snapshot;

import io.envoyproxy.controlplane.cache.NodeGroup;
import io.envoyproxy.envoy.config.core.v3.Node;

import java.util.Locale;

/**
 * The two kinds of client the server tells apart, by the {@code user_agent_name} of their node: gRPC's own xDS
 * clients (proxyless; "gRPC Java", "gRPC Go", ...) also get a listener per cluster, so that {@code xds:///<cluster>}
 * resolves; every other client (Envoy) gets clusters and endpoints only.
 */
public enum ClientKind {
    /** Envoy and any other proxy. */
    PROXY,
    /** A gRPC library's own xDS client. */
    GRPC;

    /** The kind of {@code node}. */
    public static ClientKind of(Node node) {
        return node.getUserAgentName().toLowerCase(Locale.ROOT).startsWith("grpc") ? GRPC : PROXY;
    }

    /** The node grouping of the cache: one snapshot per kind, shared by every client of that kind. */
    public static NodeGroup<ClientKind> grouping() {
        return ClientKind::of;
    }
}
