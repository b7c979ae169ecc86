package io.healthmesh.probe.grpc;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.GrpcSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.tls.ClientTlsContexts;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.healthmesh.probe.transport.ProbeBootstraps.TcpOpening;
import io.netty.handler.ssl.SslContext;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static java.util.Objects.requireNonNull;

/**
 * GRPC: {@code grpc.health.v1.Health/Check} on a fresh connection per probe, plaintext HTTP/2 with prior knowledge or
 * TLS with ALPN {@code h2} ({@code grpc.tls}). SERVING is a success; NOT_SERVING, UNKNOWN, SERVICE_UNKNOWN, a
 * {@code grpc-status} other than OK, a server that does not speak HTTP/2 and silence until the deadline are failures
 * whose detail names what came. The address it gets has passed the egress policy ({@code ProbeRunner}); there are no
 * redirects, so no other address is ever connected.
 */
public final class GrpcProber implements Prober {

    private final ProbeEngineConfig config;
    private final ClientTlsContexts tls;
    private final ProbeBootstraps bootstraps;

    public GrpcProber(ProbeEngineConfig config, ClientTlsContexts tls, ProbeBootstraps bootstraps) {
        this.config = requireNonNull(config, "config");
        this.tls = requireNonNull(tls, "tls");
        this.bootstraps = requireNonNull(bootstraps, "bootstraps");
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        GrpcSpec spec = probe.target().grpc();
        SslContext context = null;
        if (spec.tls()) {
            try {
                context = tls.forTarget(probe.target(), true);
            } catch (ClientTlsContexts.UnknownTlsIdException e) {
                probe.finish(Outcome.ERROR, e.getMessage());
                return;
            }
        }
        String host = probe.target().address();
        int port = probe.target().port();
        GrpcCall call = new GrpcCall(spec.tls(), authority(host, port), spec.service(), config.userAgent(),
                config.maxHeaderBytes());
        GrpcProbeInitializer initializer = new GrpcProbeInitializer(probe, host, port, context,
                new GrpcCallHandler(probe, call));
        probe.phase(spec.tls() ? "connecting, then TLS handshake" : "connecting");
        ProbeBootstraps.connect(probe, bootstraps.tcp(probe, address, initializer, TcpOpening.PROBE_WRITES_FIRST),
                new InetSocketAddress(address, port),
                channel -> probe.phase(spec.tls() ? "TLS handshake" : "HTTP/2 call, awaiting grpc-status"));
    }

    /** {@code host:port}, an IPv6 literal in brackets. */
    static String authority(String host, int port) {
        boolean v6 = host.indexOf(':') >= 0;
        return (v6 ? "[" + host + "]" : host) + ":" + port;
    }
}
