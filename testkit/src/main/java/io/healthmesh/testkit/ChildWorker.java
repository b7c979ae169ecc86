package io.healthmesh.testkit;

import io.healthmesh.ops.Settings;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A worker role in a child JVM (a {@link Role} and a settings file, on the test's class path), so that a test can
 * kill it for real: {@link #kill()} is {@code destroyForcibly} (SIGKILL), no shutdown hook, no commit, no clean close;
 * {@link #close()} is SIGTERM, and the child's shutdown hook closes the worker. The child's entry point is this
 * class's {@link #main}, one for every role.
 */
public final class ChildWorker implements AutoCloseable {

    /**
     * How a child starts its worker; an implementation is a public class with a public no-argument constructor, e.g.
     * {@code settings -> AggregatorWorker.start(AggregatorConfig.from(settings))}.
     */
    public interface Role {
        /** Starts the worker from the settings file's settings; it runs until the returned handle is closed. */
        AutoCloseable start(Map<String, String> settings) throws Exception;
    }

    private final Process process;
    private final Path log;

    private final String name;

    private ChildWorker(Process process, Path log, String name) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code role} with {@code settings} written to {@code <workDir>/<name>.properties}; its output goes to
     * {@code <workDir>/<name>.log}.
     */
    public static ChildWorker start(Class<? extends Role> role, Map<String, String> settings, Path workDir, String name)
            throws IOException {
        Path file = writeSettings(role, settings, workDir, name);
        Path log = workDir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-cp", System.getProperty("java.class.path")));
        command.addAll(mainArguments(role, file));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // settings come from the file only: the environment must not add HEALTHMESH_* keys of its own
        builder.environment().keySet().removeIf(k -> k.startsWith("HEALTHMESH_"));
        return new ChildWorker(builder.start(), log, name);
    }

    /** Writes {@code settings} to {@code <workDir>/<name>.properties} and returns that file. */
    public static Path writeSettings(Class<? extends Role> role, Map<String, String> settings, Path workDir,
                                     String name) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve(name + ".properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(w, role.getSimpleName() + " child " + name);
        }
        return file;
    }

    /**
     * What follows {@code java [options] -cp <class path>} to run {@code role} with a settings file, for a test that
     * builds the child's command itself (to pin it to a CPU, for instance).
     */
    public static List<String> mainArguments(Class<? extends Role> role, Path settingsFile) {
        return List.of(ChildWorker.class.getName(), role.getName(), settingsFile.toString());
    }

    /**
     * The child's entry point: {@code ChildWorker <role class> <settings file>}. Starts the role with the file's
     * settings (read as a worker role reads them, with no environment) and runs until SIGTERM closes it.
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ChildWorker <role class> <settings file>");
            System.exit(2);
        }
        Role role = (Role) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        AutoCloseable worker = role.start(Settings.load(Path.of(args[1]), Map.of()));
        runUntilShutdown(worker, "child-worker-shutdown");
    }

    /**
     * What a child process's {@code main} does last: blocks until the JVM shuts down (SIGTERM), whose hook, named
     * {@code hookName}, closes {@code worker} first.
     */
    public static void runUntilShutdown(AutoCloseable worker, String hookName) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                worker.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, hookName));
        stopped.await();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child " + name + " did not die");
        }
    }

    /** The child's output so far, for failure messages. */
    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** SIGTERM: the shutdown hook closes the worker cleanly. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
