package io.healthmesh.probe;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The channel options every probe shares. Reads are small and one per event-loop turn, so that a probe that
 * stops reading at a byte limit has read at most one buffer more; TCP closes with a reset (SO_LINGER 0), as the
 * clouds' health checkers do, so that no TIME_WAIT piles up on the prober.
 */
final class ProbeBootstraps {

    /** Bytes read per socket read: the slack allowed over a byte limit. */
    static final int READ_BUFFER_BYTES = 4096;
    /** Largest datagram a UDP probe reads; longer ones are truncated. */
    static final int MAX_DATAGRAM_BYTES = 2048;

    private ProbeBootstraps() {
    }

    private static Bootstrap bound(Bootstrap bootstrap, InetAddress bind) {
        return bind == null ? bootstrap : bootstrap.localAddress(new InetSocketAddress(bind, 0));
    }

    static Bootstrap tcp(ProbeContext probe, ChannelHandler handler) {
        return tcp(probe, handler, null);
    }

    /** {@code bind}: the source address ({@link ProbeSource#bindAddress()}), or {@code null} for the system's. */
    static Bootstrap tcp(ProbeContext probe, ChannelHandler handler, InetAddress bind) {
        return bound(new Bootstrap(), bind)
                .group(probe.loop())
                .channel(NioSocketChannel.class)
                .option(ChannelOption.SO_LINGER, 0)
                .option(ChannelOption.TCP_NODELAY, true)
                // the probe's own deadline decides; this only guarantees that the socket is given up eventually
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, probe.target().timeoutMs() + 1000)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(READ_BUFFER_BYTES).maxMessagesPerRead(1))
                .handler(handler);
    }

    static Bootstrap udp(ProbeContext probe, ChannelHandler handler) {
        return udp(probe, handler, null);
    }

    static Bootstrap udp(ProbeContext probe, ChannelHandler handler, InetAddress bind) {
        return bound(new Bootstrap(), bind)
                .group(probe.loop())
                .channel(NioDatagramChannel.class)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES).maxMessagesPerRead(1))
                .handler(handler);
    }
}
