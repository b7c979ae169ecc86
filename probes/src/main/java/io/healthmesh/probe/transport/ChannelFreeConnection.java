package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.netty.buffer.ByteBuf;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * A probe's TCP connection on the epoll transport without a Netty channel, run on the probe's event loop: one
 * socket of the target's family, the options the probe's bootstrap would give a channel ({@code SO_LINGER} 0,
 * {@code TCP_QUICKACK} 0, the source address) but {@code TCP_NODELAY}, which neither a check that only connects nor
 * a request written with one {@code send} needs, a non-blocking {@code connect} and one {@code epoll_ctl} for the
 * socket's whole life; then {@link #onConnected()} and {@link #onReady} are the subclass's. A Netty channel makes
 * about twice the system calls for the same exchange (docs/BENCHMARKS.md, "Syscalls per probe"): it records the
 * local and remote addresses, reads {@code SO_LINGER} back before closing and moves the socket's epoll interest up
 * to four times. The socket is Netty's native one ({@link NettyInternals.TcpSocket}); the registration with the
 * loop goes through Netty's public {@code IoHandle} API.
 *
 * <p>The kernel's answers about the target (refused, unreachable, reset) go to {@link ProbeContext#fail}; what fails
 * on the prober's side (no socket, an option or the epoll registration refused) is {@code INCONCLUSIVE}
 * ({@code internal-error}), never the target's. The probe's deadline and single verdict apply unchanged; the socket
 * is closed when the probe ends, however it ends. It is closed before its registration is cancelled: closing a
 * descriptor takes it out of the epoll set, so Netty then skips the {@code EPOLL_CTL_DEL} (EpollIoHandler).
 * Confined to the probe's loop.
 *
 * <p>What the subclass throws from {@link #onConnected()} or {@link #onReady} (a bug) ends its probe at once,
 * {@code INCONCLUSIVE} ({@code internal-error}), and closes the connection ({@link #guarded}): it never reaches the
 * event loop, which would log it, pause a second and drop the rest of its batch of ready sockets, whose
 * edge-triggered events do not come again, leaving their probes to their deadlines.
 */
public abstract class ChannelFreeConnection implements EpollIoHandle {

    /** Ready to write, ready to read: the connect's end and the response, edge-triggered. */
    private static final EpollIoOps READ_AND_WRITE =
            EpollIoOps.EPOLLOUT.with(EpollIoOps.EPOLLIN).with(EpollIoOps.EPOLLET);

    protected final ProbeContext probe;
    /** The probe's closer for this check: the same object for {@link ProbeContext#closeAtEnd} and its release. */
    protected final Runnable closer = this::close;
    private NettyInternals.TcpSocket socket;
    private IoRegistration registration;
    private boolean connected;
    private boolean closed;

    protected ChannelFreeConnection(ProbeContext probe) {
        this.probe = probe;
    }

    /**
     * Opens the socket and connects it to {@code remote} from {@code local} ({@code null}: the system's source
     * address); then watches for the connect's end only, or, with {@code exchange}, for reads and writes too. Call
     * once, on the probe's loop, which must be an epoll loop.
     */
    protected final void open(InetSocketAddress remote, InetSocketAddress local, boolean exchange) {
        EpollIoOps ops = exchange ? READ_AND_WRITE : EpollIoOps.EPOLLOUT;
        try {
            socket = new NettyInternals.TcpSocket(remote.getAddress() instanceof Inet6Address);
        } catch (RuntimeException noSocket) {
            probe.internalError(noSocket); // no descriptor, no buffer: the prober's trouble, not the target's
            close(); // what the check holds besides a socket (an HTTP check's buffers)
            return;
        }
        probe.closeAtEnd(closer);
        try {
            socket.resetOnCloseWithoutQuickAck();
        } catch (IOException | RuntimeException e) {
            probe.internalError(e);
            return;
        }
        try {
            if (local != null) {
                socket.bind(local); // fails as a channel's connect does: the same outcome (ChannelFreeConnectCheckTest)
            }
            connected = socket.connect(remote);
        } catch (IOException | RuntimeException e) {
            probe.fail(e); // the kernel's answer about the target: refused, unreachable
            return;
        }
        if (connected) {
            guarded(this::onConnected);
            if (closed || probe.isDone()) {
                return;
            }
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
        if (!closed) {
            guarded(() -> onEvent(event));
        }
    }

    private void onEvent(IoEvent event) {
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
        // a traced probe lingering after its verdict still reads, for the rest of the response
        if (!closed && (!probe.isDone() || probe.lingering())) {
            EpollIoOps ops = ((EpollIoEvent) event).ops();
            onReady(ops.contains(EpollIoOps.EPOLLOUT),
                    ops.contains(EpollIoOps.EPOLLIN) || ops.contains(EpollIoOps.EPOLLERR));
        }
    }

    /**
     * Runs {@code action}, one of the subclass's handlers, on the probe's loop: what it throws ends the probe
     * {@code INCONCLUSIVE} ({@code internal-error}) and closes this connection, and goes no further. Every entry
     * from the loop into the subclass goes through here, the subclass's own later tasks too.
     */
    protected final void guarded(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | Error bug) {
            try {
                probe.internalError(bug);
            } finally {
                close(); // even when the probe had its verdict already (the connection was a redirect's hop)
            }
        }
    }

    /** The connection is established; the hop's connect time is recorded. */
    protected abstract void onConnected();

    /**
     * An event after the connect: the socket is {@code writable}, or {@code readable} (which includes an error
     * waiting to be read).
     */
    protected abstract void onReady(boolean writable, boolean readable);

    /** Sends what the socket takes of {@code bytes}' readable bytes: the count sent (the reader index is not moved). */
    protected final int send(ByteBuf bytes) throws IOException {
        return socket.send(bytes);
    }

    /**
     * Reads at most {@code max} bytes after {@code into}'s writer index (not moved): the count, 0 when drained, -1
     * at the end of input.
     */
    protected final int recv(ByteBuf into, int max) throws IOException {
        return socket.recv(into, max);
    }

    protected final boolean isClosed() {
        return closed;
    }

    @Override
    public final FileDescriptor fd() {
        return socket.fd();
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
}
