package io.healthmesh.xds;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.healthmesh.xds.snapshot.ClientKind;
import io.healthmesh.xds.snapshot.SnapshotAssembler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The gRPC server of the xDS protocol: java-control-plane's discovery server (ADS, and CDS/EDS/LDS on their own
 * services, each in state-of-the-world and delta form) over a {@link SimpleCache} holding one snapshot per
 * {@link ClientKind}, on a Netty listener bounded by {@link XdsListener}.
 * <p>
 * Until the first {@link #publish}, the cache holds no snapshot: a client's requests are kept open and answered
 * with the first snapshot, so a client that connects while the state is still being read waits rather than being
 * told that a cluster has no endpoints.
 */
public final class XdsServer implements AutoCloseable {

    private final SimpleCache<ClientKind> cache = new SimpleCache<>(ClientKind.grouping());
    private final Server server;
    private volatile boolean published;

    private XdsServer(XdsListener listener, XdsCallbacks callbacks) {
        V3DiscoveryServer discovery = new V3DiscoveryServer(List.of(callbacks), cache);
        ServerCredentials credentials = listener.tls() == null
                ? InsecureServerCredentials.create() : listener.tls().credentials();
        server = NettyServerBuilder.forAddress(new InetSocketAddress(listener.host(), listener.port()), credentials)
                .addService(discovery.getAggregatedDiscoveryServiceImpl())
                .addService(discovery.getClusterDiscoveryServiceImpl())
                .addService(discovery.getEndpointDiscoveryServiceImpl())
                .addService(discovery.getListenerDiscoveryServiceImpl())
                .maxConcurrentCallsPerConnection(listener.maxStreamsPerConnection())
                .maxInboundMessageSize(listener.maxRequestBytes())
                .maxInboundMetadataSize(64 * 1024)
                .keepAliveTime(listener.keepaliveMs(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(listener.keepaliveTimeoutMs(), TimeUnit.MILLISECONDS)
                // clients (Envoy, gRPC) may ping idle ADS streams; more often than every 10 s is refused
                .permitKeepAliveTime(10, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .maxConnectionIdle(listener.idleMs(), TimeUnit.MILLISECONDS)
                .maxRstFramesPerWindow(200, 10)
                .build();
    }

    /**
     * Binds and starts.
     *
     * @throws UncheckedIOException when the address cannot be bound
     */
    static XdsServer start(XdsListener listener, XdsCallbacks callbacks) {
        XdsServer xds = new XdsServer(requireNonNull(listener, "listener"), requireNonNull(callbacks, "callbacks"));
        try {
            xds.server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("xds: cannot bind " + listener.host() + ":" + listener.port(), e);
        }
        return xds;
    }

    /** The bound port. */
    public int port() {
        return server.getPort();
    }

    /** True once a snapshot was published: clients are being answered. */
    public boolean serving() {
        return published;
    }

    /** Serves {@code snapshots} from now on; open requests whose resources changed are answered. */
    void publish(SnapshotAssembler.Snapshots snapshots) {
        for (ClientKind kind : ClientKind.values()) {
            cache.setSnapshot(kind, snapshots.of(kind));
        }
        published = true;
    }

    @Override
    public void close() {
        server.shutdownNow();
        try {
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
