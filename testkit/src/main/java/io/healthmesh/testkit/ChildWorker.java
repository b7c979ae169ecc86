package io.healthmesh.testkit;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A worker role in a child JVM (its {@code main} class with a settings file, on the test's class path), so that a
 * test can kill it for real: {@link #kill()} is {@code destroyForcibly} (SIGKILL), no shutdown hook, no commit, no
 * clean close.
 */
public final class ChildWorker implements AutoCloseable {

    private final Process process;
    private final Path log;

    private final String name;

    private ChildWorker(Process process, Path log, String name) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code main} with {@code settings} written to {@code <workDir>/<name>.properties}; its output goes to
     * {@code <workDir>/<name>.log}.
     */
    public static ChildWorker start(Class<?> main, Map<String, String> settings, Path workDir, String name)
            throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve(name + ".properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(w, main.getSimpleName() + " child " + name);
        }
        Path log = workDir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx384m", "-cp",
                System.getProperty("java.class.path"), main.getName(), file.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // settings come from the file only: the environment must not add HEALTHMESH_* keys of its own
        builder.environment().keySet().removeIf(k -> k.startsWith("HEALTHMESH_"));
        return new ChildWorker(builder.start(), log, name);
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
