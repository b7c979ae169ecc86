package io.healthmesh.probe;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * A connect-only TCP check on the epoll transport, run on the probe's event loop without a Netty channel: the
 * check's whole life is one socket, two options, a non-blocking {@code connect}, one {@code epoll_ctl} to learn
 * when the connect ends, the connect's result and {@code close}. Eight system calls, as HAProxy makes per check;
 * a Netty channel makes 16.5 for the same check (docs/BENCHMARKS.md, "Syscalls per probe"): it also records the
 * local and remote addresses, reads {@code SO_LINGER} back before closing and moves the socket's epoll interest
 * four times, none of which a check that only connects needs. Nothing else differs: the socket gets the options
 * the connect-only bootstrap gives a channel ({@code SO_LINGER} 0, {@code TCP_QUICKACK} 0, the source address),
 * the verdict is the connect's (a refusal is the kernel's {@code ConnectException}, as with a channel) and the
 * {@link ProbeContext}'s deadline and single verdict apply unchanged. What fails on the prober's side (no socket, an
 * option or the epoll registration refused) is {@code INCONCLUSIVE} ({@code internal-error}), never the target's.
 *
 * <p>The socket is closed before its epoll registration is cancelled: closing a descriptor takes it out of the
 * epoll set, so Netty then skips the {@code EPOLL_CTL_DEL} (EpollIoHandler). Confined to the probe's loop.
 */
final class EpollConnectCheck implements EpollIoHandle {

    /** {@code IPPROTO_TCP} and {@code TCP_QUICKACK} (linux/in.h, linux/tcp.h): the same on every Linux ABI. */
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_QUICKACK = 12;

    private final ProbeContext probe;
    private final CheckSocket socket;
    private IoRegistration registration;
    private boolean closed;

    private EpollConnectCheck(ProbeContext probe, CheckSocket socket) {
        this.probe = probe;
        this.socket = socket;
    }

    /**
     * Starts a check of {@code remote} from {@code local} ({@code null}: the system's source address); call on the
     * probe's loop, which must be an epoll loop. Ends in a verdict on {@code probe}: success once connected, the
     * kernel's error, or the probe's deadline.
     */
    static void start(ProbeContext probe, InetSocketAddress remote, InetSocketAddress local) {
        CheckSocket socket;
        try {
            socket = new CheckSocket(remote.getAddress() instanceof Inet6Address);
        } catch (RuntimeException noSocket) {
            probe.internalError(noSocket); // no descriptor, no buffer: the prober's trouble, not the target's
            return;
        }
        EpollConnectCheck check = new EpollConnectCheck(probe, socket);
        probe.closeAtEnd(check::close);
        try {
            socket.setSoLinger(0);
            socket.setIntOpt(IPPROTO_TCP, TCP_QUICKACK, 0);
        } catch (IOException | RuntimeException e) {
            probe.internalError(e);
            return;
        }
        try {
            if (local != null) {
                socket.bind(local); // fails as a channel's connect does: the same outcome (EpollConnectCheckTest)
            }
            if (socket.connect(remote)) {
                check.connected();
                return;
            }
        } catch (IOException | RuntimeException e) {
            probe.fail(e); // the kernel's answer about the target: refused, unreachable
            return;
        }
        try {
            Future<IoRegistration> registered = ((IoEventLoop) probe.loop()).register(check);
            if (!registered.isSuccess()) { // on its own thread the loop registers at once
                probe.internalError(registered.cause() != null ? registered.cause()
                        : new IllegalStateException("epoll registration did not complete on the probe's loop"));
                return;
            }
            check.registration = registered.getNow();
            check.registration.submit(EpollIoOps.EPOLLOUT);
        } catch (RuntimeException e) {
            probe.internalError(e); // epoll refused the descriptor: the prober's trouble
        }
    }

    /** The connect ended (writable), or failed (error, hang-up): the kernel's answer decides. */
    @Override
    public void handle(IoRegistration ignored, IoEvent event) {
        if (closed) {
            return;
        }
        try {
            if (socket.finishConnect()) {
                connected();
            }
        } catch (IOException | RuntimeException e) {
            probe.fail(e);
        }
    }

    private void connected() {
        probe.connected();
        probe.succeed("connected");
    }

    @Override
    public FileDescriptor fd() {
        return socket;
    }

    /** Closes the socket (a reset: {@code SO_LINGER} 0), then drops the registration; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // the descriptor is released either way
        }
        if (registration != null) {
            registration.cancel(); // after close: no EPOLL_CTL_DEL
        }
    }

    /** A non-blocking TCP socket of one address family (no dual-stack socket, so no {@code IPV6_V6ONLY}). */
    private static final class CheckSocket extends Socket {
        CheckSocket(boolean ipv6) {
            super(newSocketStream0(ipv6));
        }
    }
}
