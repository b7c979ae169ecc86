package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.transport.ProbeBootstraps.TcpOpening;
import io.healthmesh.probe.tls.ClientTlsContexts;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.codec.http.FullHttpRequest;

import java.net.InetSocketAddress;

/**
 * An HTTP or HTTPS hop through a Netty channel: TLS (for HTTPS) and the HTTP codec in its pipeline
 * ({@link HttpProbeInitializer}), the response read by an {@link HttpResponseHandler}, which judges it with an
 * {@link HttpResponseJudge}.
 */
final class ChannelHttpExchange implements HttpExchange {

    private final ProbeEngineConfig config;
    private final ClientTlsContexts tls;
    private final ProbeBootstraps bootstraps;
    private final HttpProber prober;

    ChannelHttpExchange(ProbeEngineConfig config, ClientTlsContexts tls, ProbeBootstraps bootstraps, HttpProber prober) {
        this.config = config;
        this.tls = tls;
        this.bootstraps = bootstraps;
        this.prober = prober;
    }

    @Override
    public void start(ProbeContext probe, HttpHop hop, FullHttpRequest request, ExpectedStatuses expected,
                      int redirectsFollowed) {
        HttpResponseHandler handler = new HttpResponseHandler(probe, hop, expected, request, config.maxBodyBytes(),
                redirectsFollowed, prober);
        SslContext context = null;
        if (hop.tls()) {
            try {
                context = tls.forTarget(probe.target(), false);
            } catch (ClientTlsContexts.UnknownTlsIdException e) {
                probe.finish(Outcome.ERROR, e.getMessage());
                return;
            }
        }
        HttpProbeInitializer initializer = new HttpProbeInitializer(probe, hop, context, config.maxHeaderBytes(),
                handler);
        ProbeBootstraps.connect(probe, bootstraps.tcp(probe, hop.address(), initializer, TcpOpening.PROBE_WRITES_FIRST),
                new InetSocketAddress(hop.address(), hop.port()),
                channel -> probe.phase(hop.tls() ? "TLS handshake" : "awaiting response"));
    }
}
