package io.healthmesh.probe.transport;

import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringSocketChannel;

import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The transport the engine runs on, chosen once at start from a {@link ProbeTransport} setting: the event-loop
 * factory, the channel classes of TCP and UDP probes, and why it was chosen (for the start log line). {@code auto}
 * takes epoll when the kernel allows it, else NIO, and records why epoll was passed over; io_uring (fewer system
 * calls per probe) is used only when forced: under the benchmark's full load its completion queue overflowed, and
 * with larger rings it reported connects at saturation as timed out where epoll reports them as not probed (false
 * failures; docs/BENCHMARKS.md, "Goals: met and missed"), so it is not a default yet. A forced transport that is
 * unavailable is refused with its cause.
 *
 * @param kind the transport used (never {@link ProbeTransport#AUTO})
 * @param requested what the setting asked for
 * @param reason one sentence: why this one (the unavailability causes of the better ones, or "forced")
 */
public record ChosenTransport(ProbeTransport kind, ProbeTransport requested, String reason) {

    /** Submission queue entries of an io_uring event loop (256 KiB of ring). */
    static final int IO_URING_RING_SIZE = 4_096;
    /** Completion queue entries of an io_uring event loop (256 KiB): room for a burst of four per submission. */
    static final int IO_URING_CQ_SIZE = 16_384;
    /** {@code TCP_QUICKACK} for NIO channels, {@code null} where the JDK offers none on this system. */
    private static final ChannelOption<Boolean> NIO_QUICK_ACK = nioQuickAck();

    public ChosenTransport {
        requireNonNull(kind, "kind");
        requireNonNull(requested, "requested");
        requireNonNull(reason, "reason");
        if (kind == ProbeTransport.AUTO) {
            throw new IllegalArgumentException("kind: auto (expected: io_uring|epoll|nio)");
        }
    }

    /**
     * Chooses the transport a setting asks for.
     *
     * @throws IllegalStateException when a forced transport is unavailable, naming the cause, e.g.
     *     {@code transport: io_uring (unavailable: ...)}
     */
    public static ChosenTransport choose(ProbeTransport requested) {
        requireNonNull(requested, "requested");
        if (requested == ProbeTransport.NIO) {
            return new ChosenTransport(ProbeTransport.NIO, requested, "forced by transport=nio");
        }
        if (requested != ProbeTransport.AUTO) {
            Throwable cause = unavailability(requested);
            if (cause != null) {
                throw new IllegalStateException("transport: " + requested.settingName() + " (unavailable: "
                        + describe(cause) + "; expected: auto, nio or an available native transport)", cause);
            }
            return new ChosenTransport(requested, requested, "forced by transport=" + requested.settingName());
        }
        List<String> passed = new ArrayList<>();
        for (ProbeTransport candidate : List.of(ProbeTransport.EPOLL)) {
            Throwable cause = unavailability(candidate);
            if (cause == null) {
                return new ChosenTransport(candidate, requested, passed.isEmpty()
                        ? "auto: the default where available" : "auto: " + String.join("; ", passed));
            }
            passed.add(candidate.settingName() + " unavailable (" + describe(cause) + ")");
        }
        return new ChosenTransport(ProbeTransport.NIO, requested, "auto: " + String.join("; ", passed));
    }

    /**
     * The transport of a group the caller owns: the engine's channels must match its event loops.
     *
     * @throws IllegalArgumentException when the group runs none of the three transports' I/O handlers
     */
    public static ChosenTransport of(EventLoopGroup group) {
        requireNonNull(group, "group");
        if (group instanceof IoEventLoopGroup io) {
            if (io.isIoType(NioIoHandler.class)) {
                return new ChosenTransport(ProbeTransport.NIO, ProbeTransport.NIO, "the caller's NIO event loops");
            }
            if (unavailability(ProbeTransport.EPOLL) == null && io.isIoType(EpollIoHandler.class)) {
                return new ChosenTransport(ProbeTransport.EPOLL, ProbeTransport.EPOLL, "the caller's epoll event loops");
            }
            if (unavailability(ProbeTransport.IO_URING) == null && io.isIoType(IoUringIoHandler.class)) {
                return new ChosenTransport(ProbeTransport.IO_URING, ProbeTransport.IO_URING,
                        "the caller's io_uring event loops");
            }
        }
        throw new IllegalArgumentException("group: " + group.getClass().getName()
                + " (expected: an IoEventLoopGroup of NIO, epoll or io_uring handlers)");
    }

    /** True when {@code transport} can run here ({@code auto} and {@code nio} always can). */
    public static boolean isAvailable(ProbeTransport transport) {
        return transport == ProbeTransport.AUTO || unavailability(transport) == null;
    }

    /** Why a native transport cannot run here, or {@code null} when it can (NIO and auto always can). */
    static Throwable unavailability(ProbeTransport transport) {
        try {
            return switch (transport) {
                case IO_URING -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
                case EPOLL -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
                case NIO, AUTO -> null;
            };
        } catch (LinkageError e) {
            return e; // the native classes or library missing from the class path
        }
    }

    private static String describe(Throwable cause) {
        Throwable root = cause;
        for (int depth = 0; root.getCause() != null && depth < 8; depth++) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /** The factory of this transport's event loops. */
    public IoHandlerFactory ioHandlerFactory() {
        return switch (kind) {
            // Netty's defaults (128 submissions, 256 completions) overflowed the completion queue at 10,000 probes/s
            // ("CompletionQueue overflow detected"): every probe is a connect, maybe a write and a read, and a close
            case IO_URING -> IoUringIoHandler.newFactory(new IoUringIoHandlerConfig()
                    .setRingSize(IO_URING_RING_SIZE).setCqSize(IO_URING_CQ_SIZE));
            // Netty's loop, with its registrations indexed by descriptor (FdTable: no cost growing with sockets in flight)
            case EPOLL -> NettyInternals.epollFactory();
            case NIO, AUTO -> NioIoHandler.newFactory();
        };
    }

    /**
     * A new TCP (and HTTP) channel of {@code family}: a socket of the target's own family needs no
     * {@code IPV6_V6ONLY} option, one {@code setsockopt} less than a dual-stack socket (io_uring channels are
     * dual-stack whatever the family: Netty offers no family there).
     */
    ChannelFactory<? extends SocketChannel> socketChannel(SocketProtocolFamily family) {
        return switch (kind) {
            case IO_URING -> IoUringSocketChannel::new;
            case EPOLL -> () -> new EpollSocketChannel(family);
            case NIO, AUTO -> () -> new NioSocketChannel(SelectorProvider.provider(), family);
        };
    }

    /**
     * The option that turns Linux's quick ACKs off on a TCP socket ({@code TCP_QUICKACK} 0), with this transport's
     * name for it, or {@code null} where the system has none (NIO off Linux: Netty would warn on every connect). Set
     * before {@code connect}, the kernel holds back the handshake's last ACK (a delayed ACK, sent with the first data
     * or by its timer), so a check that closes at once goes SYN, SYN-ACK, reset: the target's kernel never completes
     * the connection and its application never accepts it.
     */
    ChannelOption<Boolean> quickAckOption() {
        return switch (kind) {
            case IO_URING -> IoUringChannelOption.TCP_QUICKACK;
            case EPOLL -> EpollChannelOption.TCP_QUICKACK;
            case NIO, AUTO -> NIO_QUICK_ACK;
        };
    }

    /**
     * The option that defers a bound socket's choice of local port to its connect ({@code IP_BIND_ADDRESS_NO_PORT}),
     * so that a source address bound with port 0 does not cap the connections in flight at the ephemeral range (a
     * port is then taken per target, not once for every target), or {@code null} where this transport has none.
     */
    ChannelOption<Boolean> bindAddressNoPortOption() {
        return kind == ProbeTransport.EPOLL ? EpollChannelOption.IP_BIND_ADDRESS_NO_PORT : null;
    }

    private static ChannelOption<Boolean> nioQuickAck() {
        try (java.nio.channels.SocketChannel socket = java.nio.channels.SocketChannel.open()) {
            return socket.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)
                    ? NioChannelOption.of(ExtendedSocketOptions.TCP_QUICKACK) : null;
        } catch (IOException | RuntimeException unavailable) {
            return null;
        }
    }

    /** A new UDP channel of {@code family}. */
    ChannelFactory<? extends DatagramChannel> datagramChannel(SocketProtocolFamily family) {
        return switch (kind) {
            case IO_URING -> () -> new IoUringDatagramChannel(family);
            case EPOLL -> () -> new EpollDatagramChannel(family);
            case NIO, AUTO -> () -> new NioDatagramChannel(SelectorProvider.provider(), family);
        };
    }

    /** The start log line's text: {@code probe transport epoll (auto: io_uring unavailable (...))}. */
    public String describe() {
        return "probe transport " + kind.settingName() + " (" + reason + ")";
    }
}
