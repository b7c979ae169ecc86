package io.healthmesh.probe.icmp;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Sends ICMP echoes and matches their replies, for every probe of an engine, on one dedicated I/O thread that
 * waits in {@code poll()} on its sockets and a wake-up pipe: native calls never run on an event loop, and no
 * thread is used per probe. Sockets (one per address family) open on first use: Linux ping sockets when the
 * kind allows and the system permits, else raw sockets. Echoes in flight are bounded; an echo past the bound
 * fails at once. Results complete on the I/O thread; callers hop back to their own thread.
 */
public final class IcmpPinger implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IcmpPinger.class);
    /** How long a socket that could not be opened is not tried again. */
    private static final long REOPEN_AFTER_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int MAX_POLL_MILLIS = 1000;

    private final IcmpSocketKind kind;
    private final int maxOutstanding;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final ConcurrentLinkedQueue<PendingEcho> submitted = new ConcurrentLinkedQueue<>();
    private final Object startLock = new Object();
    private volatile boolean closed;
    private volatile String unavailable;
    private Thread thread;
    private LibC libc;
    private int[] wakePipe;
    private final Family v4 = new Family(false);
    private final Family v6 = new Family(true);

    /**
     * @param kind which socket kind to use
     * @param maxOutstanding echoes in flight at once (at most half the 16-bit sequence space)
     */
    public IcmpPinger(IcmpSocketKind kind, int maxOutstanding) {
        this.kind = requireNonNull(kind, "kind");
        if (maxOutstanding < 1 || maxOutstanding > 32_768) {
            throw new IllegalArgumentException("maxOutstanding: " + maxOutstanding + " (expected: 1..32768)");
        }
        this.maxOutstanding = maxOutstanding;
    }

    /**
     * Sends one echo to {@code address}; the future completes (never exceptionally) with the reply, an error,
     * or {@code TIMEOUT} once {@code timeoutNanos} have passed.
     */
    public CompletableFuture<EchoResult> echo(InetAddress address, long timeoutNanos) {
        requireNonNull(address, "address");
        if (closed) {
            return CompletableFuture.completedFuture(EchoResult.of(EchoResult.Status.UNAVAILABLE, "pinger closed"));
        }
        if (outstanding.incrementAndGet() > maxOutstanding) {
            outstanding.decrementAndGet();
            return CompletableFuture.completedFuture(EchoResult.of(EchoResult.Status.UNAVAILABLE,
                    "too many ICMP echoes in flight (" + maxOutstanding + ")"));
        }
        PendingEcho echo = new PendingEcho(address, System.nanoTime() + timeoutNanos, outstanding);
        String notStarted = ensureStarted();
        if (notStarted != null) {
            echo.complete(EchoResult.of(EchoResult.Status.UNAVAILABLE, notStarted));
            return echo.result;
        }
        submitted.add(echo);
        wake();
        return echo.result;
    }

    /**
     * Loads libc and starts the I/O thread now instead of on the first echo, so that no caller (an event loop)
     * pays for loading native code. Returns null when ICMP can be used, else why not.
     */
    public String start() {
        return ensureStarted();
    }

    /** Echoes in flight now; for tests and metrics. */
    public int outstanding() {
        return outstanding.get();
    }

    private String ensureStarted() {
        synchronized (startLock) {
            if (unavailable != null || thread != null) {
                return unavailable;
            }
            try {
                libc = LibC.load();
                int[] fds = new int[2];
                if (libc.pipe2(fds, LibC.O_NONBLOCK | LibC.O_CLOEXEC) != 0) {
                    unavailable = "ICMP unavailable: pipe2 failed: " + Errno.name(Native.getLastError());
                    return unavailable;
                }
                wakePipe = fds;
            } catch (LinkageError e) {
                unavailable = "ICMP unavailable: cannot load libc through JNA (" + e.getMessage() + ")";
                return unavailable;
            }
            thread = new Thread(this::run, "healthmesh-icmp");
            thread.setDaemon(true);
            thread.start();
            return null;
        }
    }

    private void wake() {
        synchronized (startLock) { // the pipe is closed under this lock; never write to a recycled descriptor
            if (wakePipe != null) {
                libc.write(wakePipe[1], new byte[] {1}, new NativeLong(1)); // EAGAIN when full: a wake-up is pending
            }
        }
    }

    private void run() {
        Memory pollFds = new Memory(3 * 8);
        byte[] drain = new byte[64];
        try {
            while (!closed) {
                long now = System.nanoTime();
                dispatchSubmitted(now);
                long nearest = Math.min(v4.expire(now), v6.expire(now));
                int timeoutMillis = nearest == Long.MAX_VALUE ? MAX_POLL_MILLIS
                        : (int) Math.max(0, Math.min(MAX_POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(nearest - now) + 1));
                int count = 0;
                count = addPollFd(pollFds, count, wakePipe[0]);
                int v4Index = v4.socket == null ? -1 : count;
                if (v4.socket != null) {
                    count = addPollFd(pollFds, count, v4.socket.fd);
                }
                int v6Index = v6.socket == null ? -1 : count;
                if (v6.socket != null) {
                    count = addPollFd(pollFds, count, v6.socket.fd);
                }
                int ready = libc.poll(pollFds, new NativeLong(count), timeoutMillis);
                if (ready < 0) {
                    if (Native.getLastError() != LibC.EINTR) {
                        log.warn("ICMP poll failed: {}", Errno.name(Native.getLastError()));
                    }
                    continue;
                }
                if (revents(pollFds, 0) != 0) {
                    while (libc.read(wakePipe[0], drain, new NativeLong(drain.length)).longValue() > 0) {
                        // drained: the queue is read on the next turn
                    }
                }
                if (v4Index >= 0 && revents(pollFds, v4Index) != 0) {
                    v4.socket.receiveAll();
                }
                if (v6Index >= 0 && revents(pollFds, v6Index) != 0) {
                    v6.socket.receiveAll();
                }
            }
        } catch (RuntimeException | Error e) {
            log.error("ICMP I/O thread failed; ICMP probes report ERROR from now on", e);
            unavailable = "ICMP I/O thread failed: " + e;
        } finally {
            shutdown();
        }
    }

    private void dispatchSubmitted(long now) {
        for (PendingEcho echo; (echo = submitted.poll()) != null; ) {
            Family family = echo.address instanceof Inet6Address ? v6 : v4;
            IcmpSocket socket = family.socket(now);
            if (socket == null) {
                echo.complete(EchoResult.of(EchoResult.Status.UNAVAILABLE, family.failure));
            } else {
                socket.send(echo);
            }
        }
    }

    private static int addPollFd(Memory fds, int index, int fd) {
        fds.setInt(index * 8L, fd);
        fds.setShort(index * 8L + 4, LibC.POLLIN);
        fds.setShort(index * 8L + 6, (short) 0);
        return index + 1;
    }

    private static int revents(Memory fds, int index) {
        return fds.getShort(index * 8L + 6);
    }

    private void shutdown() {
        v4.close();
        v6.close();
        for (PendingEcho echo; (echo = submitted.poll()) != null; ) {
            echo.complete(EchoResult.of(EchoResult.Status.UNAVAILABLE, "pinger closed"));
        }
        synchronized (startLock) {
            if (wakePipe != null) {
                libc.close(wakePipe[0]);
                libc.close(wakePipe[1]);
                wakePipe = null;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread running;
        synchronized (startLock) {
            running = thread;
            if (running != null) {
                wake();
            }
        }
        if (running != null) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // echoes submitted while closing (the thread has already drained the queue) must still complete
        for (PendingEcho echo; (echo = submitted.poll()) != null; ) {
            echo.complete(EchoResult.of(EchoResult.Status.UNAVAILABLE, "pinger closed"));
        }
    }

    /** The socket of one address family, opened on first use; a failure is remembered for a while. */
    private final class Family {
        private final boolean ipv6;
        IcmpSocket socket;
        String failure;
        private long failedAt;

        Family(boolean ipv6) {
            this.ipv6 = ipv6;
        }

        IcmpSocket socket(long now) {
            if (socket == null && (failure == null || now - failedAt > REOPEN_AFTER_NANOS)) {
                try {
                    socket = IcmpSocket.open(libc, ipv6, kind);
                    failure = null;
                    log.info("ICMP{} echoes use a {} socket", ipv6 ? "v6" : "", socket.kind);
                } catch (IllegalStateException e) {
                    failure = e.getMessage();
                    failedAt = now;
                    log.warn("{}", failure);
                }
            }
            return socket;
        }

        long expire(long now) {
            return socket == null ? Long.MAX_VALUE : socket.expire(now);
        }

        void close() {
            if (socket != null) {
                socket.close("pinger closed");
                socket = null;
            }
        }
    }
}
