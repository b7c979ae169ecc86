package io.healthmesh.probe.tcp;

import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.transport.ConnectCheck;
import io.healthmesh.probe.transport.ProbeBootstraps.TcpOpening;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.healthmesh.probe.transport.ResponseByteCounter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * TCP: connect; an established connection is a success, closed at once with a reset. With a payload, sends
 * {@code send} and requires a response containing {@code expect} within {@code maxResponseBytes}.
 * A refused connection fails at once ({@code CONNECTION_REFUSED}), not at the deadline. A connect-only check is the
 * engine's {@link ConnectCheck} (without a channel on epoll, unless 000's marker is to be written).
 */
public final class TcpProber implements Prober {

    private final int maxResponseBytes;
    private final ProbeBootstraps bootstraps;
    private final ConnectCheck connectCheck;

    TcpProber(int maxResponseBytes) {
        this(maxResponseBytes, ProbeSource.NONE, ProbeBootstraps.NIO);
    }

    /** {@code bootstraps}: the engine's, built with its transport and {@code source}'s address. */
    public TcpProber(int maxResponseBytes, ProbeSource source, ProbeBootstraps bootstraps) {
        this.maxResponseBytes = maxResponseBytes;
        this.bootstraps = bootstraps;
        this.connectCheck = bootstraps.connectCheck(source.markerBytes());
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        TcpSpec spec = probe.target().tcp();
        InetSocketAddress remote = new InetSocketAddress(address, probe.target().port());
        probe.phase("connecting");
        if (!spec.hasPayload()) {
            connectCheck.start(probe, remote);
            return;
        }
        ChannelInitializer<SocketChannel> exchange = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new ResponseByteCounter(probe), new TcpExchangeHandler(probe, spec, maxResponseBytes));
            }
        };
        ProbeBootstraps.connect(probe, bootstraps.tcp(probe, address, exchange, opening(spec)), remote, channel ->
                probe.phase(spec.expect() == null ? "sending payload" : "awaiting expected response"));
    }

    /**
     * A probe with bytes to send writes them as soon as it is connected; one with only {@code expect} waits for the
     * target's banner and must not hold back the handshake's last ACK (ProbeBootstraps).
     */
    static TcpOpening opening(TcpSpec spec) {
        return spec.send() != null && !spec.send().isEmpty() ? TcpOpening.PROBE_WRITES_FIRST
                : TcpOpening.TARGET_SPEAKS_FIRST;
    }
}
