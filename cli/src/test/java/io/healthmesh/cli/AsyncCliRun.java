package io.healthmesh.cli;

import io.healthmesh.testkit.Await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Runs a long-lived command (watch, demo) on its own thread, so that a test can read its output while it runs and
 * then wait for its exit code. Output buffers are thread-safe ({@link StringWriter} is backed by a StringBuffer).
 */
public final class AsyncCliRun {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final Thread thread;

    private AsyncCliRun(String... args) {
        thread = new Thread(() -> {
            try {
                exit.complete(Healthmesh.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
            } catch (Throwable t) {
                exit.completeExceptionally(t);
            }
        }, "cli-" + args[0]);
        thread.setDaemon(true);
        thread.start();
    }

    public static AsyncCliRun start(String... args) {
        return new AsyncCliRun(args);
    }

    public String out() {
        return out.toString();
    }

    public String err() {
        return err.toString();
    }

    /** Waits until standard output contains {@code text}; fails after {@code patience}. */
    public void awaitOut(String text, Duration patience) {
        awaitOutput(patience, out -> out.contains(text), "'" + text + "'");
    }

    /** Waits until standard output has a match of {@code pattern}; fails after {@code patience}. */
    public void awaitMatch(Pattern pattern, Duration patience) {
        awaitOutput(patience, out -> pattern.matcher(out).find(), "/" + pattern + "/");
    }

    /** Waits until standard output passes {@code printed}; fails at once when the command ends before it does. */
    private void awaitOutput(Duration patience, Predicate<String> printed, String what) {
        Await.until(patience, () -> {
            if (printed.test(out())) {
                return true;
            }
            if (exit.isDone() && !printed.test(out())) {
                throw new AssertionError("command ended (exit " + exit.join() + ") before printing " + what
                        + "\nout:\n" + out() + "\nerr:\n" + err());
            }
            return false;
        }, () -> what + " printed\nout:\n" + out() + "\nerr:\n" + err());
    }

    /**
     * Stops the command as SIGTERM would ({@link StopSignal#stop}) once it has installed its signal, and returns its
     * exit code, waiting at most {@code patience} in all.
     */
    public int stop(Duration patience) throws Exception {
        Await.until(patience, () -> exit.isDone() || StopSignal.stop(thread), () -> "a stop signal installed");
        return awaitExit(patience);
    }

    /** The exit code, waiting at most {@code patience}. */
    public int awaitExit(Duration patience) throws Exception {
        return exit.get(patience.toMillis(), TimeUnit.MILLISECONDS);
    }
}
