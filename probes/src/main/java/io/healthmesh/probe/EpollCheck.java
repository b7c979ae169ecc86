package io.healthmesh.probe;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * A TCP check on the epoll transport run on the probe's event loop without a Netty channel: one socket of the
 * target's family, the options the probe's bootstrap would give a channel ({@code SO_LINGER} 0, {@code TCP_QUICKACK}
 * 0, the source address) but {@code TCP_NODELAY}, which neither a check that only connects nor a request written
 * with one {@code send} needs, a non-blocking {@code connect} and one {@code epoll_ctl} for the socket's whole
 * life; then {@link #onConnected()} and {@link #onReady} are the subclass's. A Netty channel makes about twice the
 * system calls for the same exchange (docs/BENCHMARKS.md, "Syscalls per probe"): it records the local and remote
 * addresses, reads {@code SO_LINGER} back before closing and moves the socket's epoll interest up to four times.
 *
 * <p>The kernel's answers about the target (refused, unreachable, reset) go to {@link ProbeContext#fail}; what fails
 * on the prober's side (no socket, an option or the epoll registration refused) is {@code INCONCLUSIVE}
 * ({@code internal-error}), never the target's. The probe's deadline and single verdict apply unchanged; the socket
 * is closed when the probe ends, however it ends. It is closed before its registration is cancelled: closing a
 * descriptor takes it out of the epoll set, so Netty then skips the {@code EPOLL_CTL_DEL} (EpollIoHandler).
 * Confined to the probe's loop.
 */
abstract class EpollCheck implements EpollIoHandle {

    /** {@code IPPROTO_TCP} and {@code TCP_QUICKACK} (linux/in.h, linux/tcp.h): the same on every Linux ABI. */
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_QUICKACK = 12;

    protected final ProbeContext probe;
    /** The probe's closer for this check: the same object for {@link ProbeContext#closeAtEnd} and its release. */
    protected final Runnable closer = this::close;
    private CheckSocket socket;
    private IoRegistration registration;
    private boolean connected;
    private boolean closed;

    EpollCheck(ProbeContext probe) {
        this.probe = probe;
    }

    /**
     * Opens the socket and connects it to {@code remote} from {@code local} ({@code null}: the system's source
     * address), watching for {@code ops}; call once, on the probe's loop, which must be an epoll loop.
     */
    final void open(InetSocketAddress remote, InetSocketAddress local, EpollIoOps ops) {
        try {
            socket = new CheckSocket(remote.getAddress() instanceof Inet6Address);
        } catch (RuntimeException noSocket) {
            probe.internalError(noSocket); // no descriptor, no buffer: the prober's trouble, not the target's
            close(); // what the check holds besides a socket (an HTTP check's buffers)
            return;
        }
        probe.closeAtEnd(closer);
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
                connected = true;
                onConnected();
                if (closed || probe.isDone()) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            probe.fail(e); // the kernel's answer about the target: refused, unreachable
            return;
        }
        try {
            Future<IoRegistration> registered = ((IoEventLoop) probe.loop()).register(this);
            if (!registered.isSuccess()) { // on its own thread the loop registers at once
                probe.internalError(registered.cause() != null ? registered.cause()
                        : new IllegalStateException("epoll registration did not complete on the probe's loop"));
                return;
            }
            registration = registered.getNow();
            registration.submit(ops);
        } catch (RuntimeException e) {
            probe.internalError(e); // epoll refused the descriptor: the prober's trouble
        }
    }

    /** The connect ended (writable), failed (error, hang-up), or, once connected, what {@code ops} asked for. */
    @Override
    public final void handle(IoRegistration ignored, IoEvent event) {
        if (closed) {
            return;
        }
        if (!connected) {
            try {
                if (!socket.finishConnect()) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                probe.fail(e);
                return;
            }
            connected = true;
            onConnected();
        }
        if (!closed && !probe.isDone()) {
            onReady(((EpollIoEvent) event).ops());
        }
    }

    /** The connection is established; the hop's connect time is recorded. */
    protected abstract void onConnected();

    /** An event after the connect: {@code ops} says what the socket is ready for (or that it failed). */
    protected abstract void onReady(EpollIoOps ops);

    protected final Socket socket() {
        return socket;
    }

    protected final boolean isClosed() {
        return closed;
    }

    @Override
    public final FileDescriptor fd() {
        return socket;
    }

    /** Closes the socket (a reset: {@code SO_LINGER} 0), then drops the registration; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (socket == null) {
            return; // it never opened
        }
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
