package io.healthmesh.probe.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Every use the probes make of Netty's internals, in one place, each paid for by a measurement
 * (docs/BENCHMARKS.md) and each held to this Netty by {@code NettyInternalsTest}, which fails on a version where
 * one of them changed:
 * <ul>
 *   <li><b>The epoll loop's registration map.</b> Netty keeps an epoll loop's registrations in an
 *       {@code IntObjectHashMap} whose removal cost grows with the sockets in flight (see {@link FdTable}); it offers
 *       no way to choose that map, so the handler's private final {@code registrations} field is replaced by
 *       reflection right after Netty builds the handler, before its loop has started or registered anything. Where
 *       this Netty has no such field, the loops keep Netty's map and one line says so: probes work the same, only
 *       slower with many sockets in flight ("Where the probe loops' own code went": 17.6 % of the probe loops' Java
 *       samples; {@code RegistrationTableBenchmark}).</li>
 *   <li><b>Netty's native socket</b> ({@link LinuxSocket}, marked for Netty's internal use), through its public
 *       factory and methods: the socket of a {@link ChannelFreeConnection}, which registers with the epoll loop
 *       through Netty's public {@code IoHandle} API and makes about half a channel's system calls per check
 *       ("Syscalls per probe": 8.4 against 16.5 per TCP check, 10.5 against 19.5 per HTTP check).</li>
 * </ul>
 */
final class NettyInternals {

    private static final Logger LOG = LoggerFactory.getLogger(NettyInternals.class);
    /** The name of {@link EpollIoHandler}'s registration map. */
    static final String REGISTRATIONS_FIELD = "registrations";
    /** Netty's field, or {@code null} when this version has none of the expected shape. */
    private static final Field REGISTRATIONS = findRegistrations();

    private NettyInternals() {
    }

    /** Netty's epoll loop factory, its handlers given an {@link FdTable} when this Netty allows it. */
    static IoHandlerFactory epollFactory() {
        IoHandlerFactory netty = EpollIoHandler.newFactory();
        if (REGISTRATIONS == null) {
            return netty;
        }
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                IoHandler handler = netty.newHandler(executor);
                install(handler);
                return handler;
            }

            @Override
            public boolean isChangingThreadSupported() {
                return netty.isChangingThreadSupported();
            }
        };
    }

    /** True when this Netty's epoll loop has the registration map this class replaces. */
    static boolean hasRegistrationsField() {
        return REGISTRATIONS != null;
    }

    /** The table {@code handler} keeps its registrations in, or {@code null} when it keeps Netty's map. */
    static FdTable<?> tableOf(IoHandler handler) {
        return REGISTRATIONS != null && handler instanceof EpollIoHandler && read(handler) instanceof FdTable<?> table
                ? table : null;
    }

    private static void install(IoHandler handler) {
        Object current = read(handler);
        if (!(current instanceof IntObjectMap<?> map) || !map.isEmpty()) {
            LOG.warn("epoll event loop keeps Netty's registration map: it is not an empty IntObjectMap ({})",
                    current == null ? "null" : current.getClass().getName());
            return;
        }
        try {
            REGISTRATIONS.set(handler, new FdTable<>());
        } catch (IllegalAccessException | RuntimeException e) {
            LOG.warn("epoll event loop keeps Netty's registration map: {}", e.toString());
        }
    }

    private static Object read(IoHandler handler) {
        try {
            return REGISTRATIONS.get(handler);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static Field findRegistrations() {
        try {
            Field field = EpollIoHandler.class.getDeclaredField(REGISTRATIONS_FIELD);
            if (field.getType() != IntObjectMap.class || Modifier.isStatic(field.getModifiers())) {
                LOG.info("epoll event loops keep Netty's registration map: {}.{} is a {}",
                        EpollIoHandler.class.getSimpleName(), REGISTRATIONS_FIELD, field.getType().getName());
                return null;
            }
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException | RuntimeException e) {
            LOG.info("epoll event loops keep Netty's registration map: {}", e.toString());
            return null;
        }
    }

    /**
     * A non-blocking TCP socket of one address family (no dual-stack socket, so no {@code IPV6_V6ONLY}), on Netty's
     * native socket. Not thread-safe: confined to the loop of the probe that opened it.
     */
    static final class TcpSocket {

        /** {@code IPPROTO_TCP} and {@code TCP_QUICKACK} (linux/in.h, linux/tcp.h): the same on every Linux ABI. */
        private static final int IPPROTO_TCP = 6;
        private static final int TCP_QUICKACK = 12;
        /** {@code SOL_IP} and {@code IP_BIND_ADDRESS_NO_PORT} (linux/in.h): honoured by IPv6 sockets too. */
        private static final int SOL_IP = 0;
        private static final int IP_BIND_ADDRESS_NO_PORT = 24;

        private final Socket socket;

        /** Opens a socket; throws when the system gives none (no descriptor left, no native library). */
        TcpSocket(boolean ipv6) {
            this.socket = LinuxSocket.newSocketStream(ipv6 ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET);
        }

        /** The descriptor that the epoll loop watches. */
        FileDescriptor fd() {
            return socket;
        }

        /** {@code SO_LINGER} 0 (a close is a reset) and {@code TCP_QUICKACK} 0 (the handshake's last ACK held back). */
        void resetOnCloseWithoutQuickAck() throws IOException {
            socket.setSoLinger(0);
            socket.setIntOpt(IPPROTO_TCP, TCP_QUICKACK, 0);
        }

        /**
         * Binds the source address; with port 0, the port is chosen at the connect ({@code IP_BIND_ADDRESS_NO_PORT}),
         * from the ports free towards that one target, rather than at the bind from the ports free towards any: a
         * bound source address then does not cap the connections in flight at the ephemeral range.
         */
        void bind(InetSocketAddress local) throws IOException {
            if (local.getPort() == 0) {
                socket.setIntOpt(SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1);
            }
            socket.bind(local);
        }

        /** The socket's local address ({@code getsockname}). */
        InetSocketAddress localAddress() {
            return socket.localAddress();
        }

        /** Starts a non-blocking connect: true when it completed at once. */
        boolean connect(InetSocketAddress remote) throws IOException {
            return socket.connect(remote);
        }

        /** True once the connect has completed; throws the kernel's error when it failed. */
        boolean finishConnect() throws IOException {
            return socket.finishConnect();
        }

        /** Sends what it can of {@code bytes}' readable bytes: the count sent (the reader index is not moved). */
        int send(ByteBuf bytes) throws IOException {
            if (bytes.hasMemoryAddress()) {
                return socket.sendAddress(bytes.memoryAddress(), bytes.readerIndex(), bytes.writerIndex());
            }
            ByteBuffer nio = bytes.internalNioBuffer(bytes.readerIndex(), bytes.readableBytes());
            return socket.send(nio, nio.position(), nio.limit());
        }

        /**
         * Reads at most {@code max} bytes after {@code into}'s writer index (not moved): the count, 0 when drained,
         * -1 at the end of input.
         */
        int recv(ByteBuf into, int max) throws IOException {
            int length = Math.min(max, into.writableBytes());
            if (into.hasMemoryAddress()) {
                return socket.recvAddress(into.memoryAddress(), into.writerIndex(), into.writerIndex() + length);
            }
            ByteBuffer nio = into.internalNioBuffer(into.writerIndex(), length);
            return socket.recv(nio, nio.position(), nio.limit());
        }

        void close() throws IOException {
            socket.close();
        }
    }
}
