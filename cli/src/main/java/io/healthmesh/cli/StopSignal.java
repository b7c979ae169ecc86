package io.healthmesh.cli;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM/Ctrl-C as a value the main thread waits on. Installing it registers a shutdown hook that only signals and
 * then waits (bounded) until the main thread reports {@link #closed()}, so that the close happens on the main thread,
 * in the order it defines, even when the signal comes while things are still starting.
 * <p>
 * A program that runs commands in its own JVM (a test, an embedding) stops one with {@link #stop(Thread)}: the same
 * orderly close as on SIGTERM, without ending the JVM.
 */
public final class StopSignal {

    /** How long the shutdown hook waits for the close. */
    public static final Duration CLOSE_PATIENCE = Duration.ofSeconds(60);

    /** The signal of the command running on each thread, for {@link #stop(Thread)}. */
    private static final Map<Thread, StopSignal> RUNNING = new ConcurrentHashMap<>();

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;
    private final Thread owner = Thread.currentThread();
    private volatile boolean signalled;
    private volatile boolean hookRan;

    private StopSignal(String name) {
        hook = new Thread(() -> {
            hookRan = true;
            signalled = true;
            stop.countDown();
            try {
                closed.await(CLOSE_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "healthmesh-" + name + "-shutdown");
    }

    /** Registers the shutdown hook; call before starting anything that must be closed in order. */
    public static StopSignal install(String name) {
        StopSignal signal = new StopSignal(name);
        Runtime.getRuntime().addShutdownHook(signal.hook);
        RUNNING.put(signal.owner, signal);
        return signal;
    }

    /**
     * Stops the command running on {@code thread} as SIGTERM would, without ending the JVM.
     *
     * @return false when no command with a signal runs on that thread
     */
    public static boolean stop(Thread thread) {
        StopSignal signal = RUNNING.get(thread);
        if (signal == null) {
            return false;
        }
        signal.signalled = true;
        signal.stop.countDown();
        return true;
    }

    /** True once a signal came. */
    public boolean signalled() {
        return signalled;
    }

    /** Waits for a signal, at most {@code duration} ({@code null} = no limit); true when a signal came. */
    public boolean await(Duration duration) throws InterruptedException {
        if (duration == null) {
            stop.await();
            return true;
        }
        return stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reports that everything is closed: the hook may let the JVM exit; unless it ran, the hook is removed. */
    public void closed() {
        RUNNING.remove(owner, this);
        closed.countDown();
        if (!hookRan) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping anyway; the hook finds everything closed
            }
        }
    }
}
