package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.SocketProtocolFamily;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The bootstraps every probe of an engine starts from, built once with the engine's transport, source address and
 * channel options; a probe clones one onto its event loop and adds its handler and deadline. What each connection
 * costs in system calls is decided here (docs/BENCHMARKS.md, "Syscalls per probe"):
 * <ul>
 *   <li>a socket of the target's own family (IPv4 or IPv6), so no {@code IPV6_V6ONLY} option is set on it;</li>
 *   <li>TCP closes with a reset (SO_LINGER 0), as HAProxy's and the clouds' health checkers do, so that no
 *       TIME_WAIT piles up on the prober;</li>
 *   <li>TCP_NODELAY is not set here: all three transports set it on every new socket by default;</li>
 *   <li>a connect-only TCP probe does not read (no auto-read): its verdict is the connect, and not asking for
 *       reads spares the event loop an interest change per connection;</li>
 *   <li>a connect-only TCP probe holds back the handshake's last ACK ({@code TCP_QUICKACK} 0, one
 *       {@code setsockopt} more) and closes before it is sent: SYN, SYN-ACK, reset, as the reference document
 *       describes the check (000) and as HAProxy does it. The target's kernel never completes the connection, so
 *       its application accepts nothing and logs nothing, and neither side builds an established socket;</li>
 *   <li>a probe that writes first (HTTP and HTTPS, a TCP probe with a {@code send} payload) holds back that ACK
 *       too, so that it rides on the first data segment (the request, the TLS client hello), as HAProxy's checks
 *       do; nor does it acknowledge the response before its reset: 7 TCP segments per HTTP check instead of 9
 *       (docs/PROBES.md). A probe that waits for the target to speak first (a TCP
 *       probe with only {@code expect}: an SMTP or SSH banner) must not: its target accepts the connection, and
 *       then speaks, only once that ACK arrives, which a held-back ACK would delay by the kernel's delayed-ACK
 *       timer;</li>
 *   <li>reads are small and one per event-loop turn, so that a probe that stops reading at a byte limit has read
 *       at most one buffer more;</li>
 *   <li>no resolver: every probe connects to the address its {@code AddressGate} resolved and checked, so Netty's
 *       default resolver, found under a lock shared by all event loops, is not looked up per connect;</li>
 *   <li>no connect timeout: the probe's own deadline closes its channels ({@link ProbeContext}), so a Netty timer
 *       task armed and cancelled on every connect would never decide anything.</li>
 * </ul>
 */
public final class ProbeBootstraps {

    /** Bytes read per socket read: the slack allowed over a byte limit. */
    public static final int READ_BUFFER_BYTES = 4096;
    /** Largest datagram a UDP probe reads; longer ones are truncated. */
    public static final int MAX_DATAGRAM_BYTES = 2048;

    /** NIO, the system's source address: for probers built without an engine (tests of one handler). */
    public static final ProbeBootstraps NIO = new ProbeBootstraps(
            new ChosenTransport(ProbeTransport.NIO, ProbeTransport.NIO, "default"), null);

    /** A connect-only TCP probe needs no handler in its pipeline; the bootstrap needs one. */
    private static final ChannelHandler NO_HANDLER = new Empty();

    private static final RecvByteBufAllocator TCP_READS = new FixedRecvByteBufAllocator(READ_BUFFER_BYTES)
            .maxMessagesPerRead(1);
    private static final RecvByteBufAllocator UDP_READS = new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES)
            .maxMessagesPerRead(1);

    private final Family v4;
    private final Family v6;
    private final boolean checksWithoutChannel;
    private final InetSocketAddress localAddress;

    /** {@code bind}: the source address ({@code ProbeSource.bindAddress}), or {@code null} for the system's. */
    public ProbeBootstraps(ChosenTransport transport, InetAddress bind) {
        this.v4 = new Family(transport, SocketProtocolFamily.INET, bind);
        this.v6 = new Family(transport, SocketProtocolFamily.INET6, bind);
        this.checksWithoutChannel = transport.kind() == ProbeTransport.EPOLL;
        this.localAddress = bind == null ? null : new InetSocketAddress(bind, 0);
    }

    /**
     * True when a connect-only TCP check and a plain HTTP hop run without a channel ({@link ChannelFreeConnection}:
     * the same options but {@code TCP_NODELAY}, about half the system calls): on the epoll transport. io_uring's
     * channel already submits its connect and close as ring entries; NIO has no such path. Read when a prober is
     * built, to choose its connections; no probe asks.
     */
    public boolean checksWithoutChannel() {
        return checksWithoutChannel;
    }

    /**
     * The check of a connect-only TCP probe: without a channel where {@link #checksWithoutChannel()} and no
     * {@code marker} is to be written, else through a channel that writes {@code marker} (000's L4 marker; or
     * {@code null}) once connected.
     */
    public ConnectCheck connectCheck(byte[] marker) {
        InetSocketAddress local = localAddress;
        return marker == null && checksWithoutChannel
                ? (probe, remote) -> ChannelFreeConnectCheck.start(probe, remote, local)
                : new ChannelConnectCheck(this, marker);
    }

    /**
     * Connects a channel of {@code bootstrap} to {@code remote} for {@code probe}: the channel closes when the probe
     * ends; a failed connect is the probe's verdict; once connected, the hop's connect time is recorded, then
     * {@code connected} runs with the channel.
     */
    public static void connect(ProbeContext probe, Bootstrap bootstrap, InetSocketAddress remote,
                               Consumer<Channel> connected) {
        ChannelFuture connect = bootstrap.connect(remote);
        probe.track(connect.channel());
        connect.addListener(probe.onConnect(f -> {
            if (!f.isSuccess()) {
                probe.fail(f.cause());
                return;
            }
            probe.connected();
            connected.accept(f.channel());
        }));
    }

    /** The source address and port 0, or {@code null} for the system's choice. */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /** A TCP bootstrap of a connect-only probe to {@code address}: no handler, no reads. */
    Bootstrap connectOnly(ProbeContext probe, InetAddress address) {
        return family(address).connectOnly.clone(probe.loop()).handler(NO_HANDLER);
    }

    /**
     * A TCP bootstrap of a probe to {@code address} that talks through {@code handler}; {@code opening} says who
     * speaks first, which decides whether the handshake's last ACK is held back for the probe's first bytes.
     */
    public Bootstrap tcp(ProbeContext probe, InetAddress address, ChannelHandler handler, TcpOpening opening) {
        Family family = family(address);
        Bootstrap base = opening == TcpOpening.PROBE_WRITES_FIRST ? family.writesFirst : family.tcp;
        return base.clone(probe.loop()).handler(requireNonNull(handler, "handler"));
    }

    private Family family(InetAddress address) {
        return address instanceof Inet4Address ? v4 : v6;
    }

    /** A UDP bootstrap of a probe to {@code address} that talks through {@code handler}. */
    public Bootstrap udp(ProbeContext probe, InetAddress address, ChannelHandler handler) {
        return (address instanceof Inet4Address ? v4 : v6).udp.clone(probe.loop()).handler(handler);
    }

    /** Who sends the first bytes on a probe's TCP connection that exchanges data. */
    public enum TcpOpening {
        /** The probe: an HTTP request, a TLS client hello, a {@code send} payload. */
        PROBE_WRITES_FIRST,
        /** The target: a banner that the probe waits for before it writes anything, if it writes at all. */
        TARGET_SPEAKS_FIRST
    }

    /** The four bootstraps of one address family. */
    private static final class Family {
        final Bootstrap tcp;
        final Bootstrap writesFirst;
        final Bootstrap connectOnly;
        final Bootstrap udp;

        Family(ChosenTransport transport, SocketProtocolFamily family, InetAddress bind) {
            Bootstrap tcpBase = base(bind);
            ChannelOption<Boolean> noPort = transport.bindAddressNoPortOption();
            if (bind != null && noPort != null) {
                tcpBase.option(noPort, true); // the port chosen at the connect, per target
            }
            this.tcp = tcpBase
                    .channelFactory(transport.socketChannel(family))
                    .option(ChannelOption.SO_LINGER, 0)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, TCP_READS);
            Bootstrap connect = tcp.clone().option(ChannelOption.AUTO_READ, false);
            ChannelOption<Boolean> quickAck = transport.quickAckOption();
            this.connectOnly = quickAck == null ? connect : connect.option(quickAck, false);
            this.writesFirst = quickAck == null ? tcp : tcp.clone().option(quickAck, false);
            this.udp = base(bind)
                    .channelFactory(transport.datagramChannel(family))
                    .option(ChannelOption.RCVBUF_ALLOCATOR, UDP_READS);
        }

        /** What every bootstrap of the engine shares: the source address, no resolver, no connect timeout. */
        private static Bootstrap base(InetAddress bind) {
            Bootstrap bootstrap = new Bootstrap().disableResolver().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0);
            return bind == null ? bootstrap : bootstrap.localAddress(new InetSocketAddress(bind, 0));
        }
    }

    @ChannelHandler.Sharable
    private static final class Empty extends ChannelInboundHandlerAdapter {
    }
}
