package io.healthmesh.cli.roles;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.window.DurationConverter;
import io.healthmesh.ops.Settings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the worker roles ({@code prober}, {@code aggregator}, {@code registry}) share: settings from a properties file
 * and {@code HEALTHMESH_*} environment variables ({@link Settings#load}), a bad setting is exit 2 with every problem
 * listed, then the worker runs until SIGTERM/Ctrl-C (or {@code --duration}) and is closed before the JVM exits.
 */
abstract class WorkerRole implements Callable<Integer> {

    /** How long the shutdown hook waits for the worker to close. */
    static final Duration CLOSE_PATIENCE = Duration.ofSeconds(60);

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Settings file (Java properties); HEALTHMESH_* environment variables override it.")
    Path config;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Stop after this long (e.g. 10m); default: until SIGTERM or Ctrl-C.")
    Duration duration;

    /** Environment used for settings; tests replace it. */
    Map<String, String> environment = System.getenv();

    /** Starts the worker from validated settings. */
    abstract AutoCloseable start(Map<String, String> settings);

    /** One line said once the worker runs, e.g. where its endpoints are. */
    abstract String started(AutoCloseable worker);

    @Override
    public Integer call() throws InterruptedException {
        Map<String, String> settings;
        try {
            settings = Settings.load(config, environment);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        AutoCloseable worker;
        try {
            worker = start(settings);
        } catch (IllegalArgumentException e) {
            // the role configs list every problem at once, separated by newlines or semicolons
            List<String> problems = Arrays.stream(e.getMessage().split("\\R|; "))
                    .map(String::trim).filter(s -> !s.isEmpty()).toList();
            throw new BadInputException("invalid " + spec.name() + " settings", problems);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(started(worker));
        out.flush();
        return runUntilStopped(worker, duration, out, spec.name());
    }

    /**
     * Blocks until SIGTERM/Ctrl-C or {@code duration}, then closes {@code worker}. On a signal the shutdown hook
     * waits (bounded) for the close, so that the JVM does not exit under a half-closed worker.
     */
    static int runUntilStopped(AutoCloseable worker, Duration duration, PrintWriter out, String name)
            throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                closed.await(CLOSE_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "healthmesh-" + name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean signalled;
        try {
            if (duration == null) {
                stop.await();
                signalled = true;
            } else {
                signalled = stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            out.println(name + ": stopping");
            out.flush();
            try {
                worker.close();
            } catch (Exception e) {
                throw new IllegalStateException(name + " did not close cleanly: " + e.getMessage(), e);
            } finally {
                closed.countDown();
            }
        }
        if (!signalled) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping anyway; the hook finds the worker closed
            }
        }
        out.println(name + ": stopped");
        out.flush();
        return 0;
    }
}
