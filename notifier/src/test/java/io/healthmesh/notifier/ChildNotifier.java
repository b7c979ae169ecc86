package io.healthmesh.notifier;

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
 * A notifier in a child JVM ({@link NotifierMain} with a settings file), so that a test can kill it for real:
 * {@link #kill()} is {@code destroyForcibly} (SIGKILL), no shutdown hook, no commit, no clean close.
 */
final class ChildNotifier implements AutoCloseable {

    private final Process process;
    private final Path log;

    private ChildNotifier(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildNotifier start(Map<String, String> settings, Path workDir, String name) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve(name + ".properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(w, "notifier child " + name);
        }
        Path log = workDir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx384m", "-cp",
                System.getProperty("java.class.path"), NotifierMain.class.getName(), file.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // settings come from the file only: the environment must not add HEALTHMESH_* keys of its own
        builder.environment().keySet().removeIf(k -> k.startsWith("HEALTHMESH_"));
        return new ChildNotifier(builder.start(), log);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child notifier did not die");
        }
    }

    /** The child's output so far, for failure messages. */
    String output() {
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
