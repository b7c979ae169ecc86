package io.healthmesh.probe;

import io.netty.buffer.Unpooled;

import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.probe.ProbeBootstraps.TcpOpening;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * TCP: connect; an established connection is a success, closed at once with a reset. With a payload, sends
 * {@code send} and requires a response containing {@code expect} within {@code maxResponseBytes}.
 * A refused connection fails at once ({@code CONNECTION_REFUSED}), not at the deadline. On epoll a connect-only
 * check without 000's marker runs without a channel ({@link EpollConnectCheck}).
 */
final class TcpProber implements Prober {

    private final int maxResponseBytes;
    private final ProbeSource source;
    private final ProbeBootstraps bootstraps;

    TcpProber(int maxResponseBytes) {
        this(maxResponseBytes, ProbeSource.NONE, ProbeBootstraps.NIO);
    }

    /** {@code bootstraps}: the engine's, built with its transport and {@code source}'s address. */
    TcpProber(int maxResponseBytes, ProbeSource source, ProbeBootstraps bootstraps) {
        this.maxResponseBytes = maxResponseBytes;
        this.source = source;
        this.bootstraps = bootstraps;
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        TcpSpec spec = probe.target().tcp();
        if (!spec.hasPayload() && source.markerBytes() == null && bootstraps.checksWithoutChannel()) {
            probe.phase("connecting");
            EpollConnectCheck.start(probe, new InetSocketAddress(address, probe.target().port()),
                    bootstraps.localAddress());
            return;
        }
        ChannelHandler handler = !spec.hasPayload() ? null : new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new ResponseByteCounter(probe), new TcpExchangeHandler(probe, spec, maxResponseBytes));
            }
        };
        probe.phase("connecting");
        Bootstrap bootstrap = handler == null ? bootstraps.connectOnly(probe, address)
                : bootstraps.tcp(probe, address, handler, opening(spec));
        ChannelFuture connect = bootstrap.connect(new InetSocketAddress(address, probe.target().port()));
        probe.track(connect.channel());
        connect.addListener(probe.onConnect(f -> {
            if (!f.isSuccess()) {
                probe.fail(f.cause());
                return;
            }
            probe.connected();
            byte[] marker = source.markerBytes();
            if (!spec.hasPayload() && marker != null) {
                // 000's "HEALTH CHECK" mark: written once connected; the verdict is still the connect
                f.channel().writeAndFlush(Unpooled.wrappedBuffer(marker))
                        .addListener(w -> probe.succeed("connected, marker sent"));
            } else if (!spec.hasPayload()) {
                probe.succeed("connected");
            } else {
                probe.phase(spec.expect() == null ? "sending payload" : "awaiting expected response");
            }
        }));
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
