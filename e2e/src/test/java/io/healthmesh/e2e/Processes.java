package io.healthmesh.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command line to its end, bounded in time, with its output (stdout and stderr together) kept. */
final class Processes {

    /** How a command ended: its exit code and everything it printed. */
    record Result(int exitCode, String output) {
    }

    private Processes() {
    }

    /**
     * Runs {@code command} in {@code directory} with {@code env} added to this JVM's environment.
     *
     * @throws IllegalStateException when it does not end within {@code timeout} (it is killed then)
     */
    static Result run(List<String> command, Path directory, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        Path output = Files.createTempFile("e2e-process", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within "
                        + timeout.toSeconds() + " s; its output:\n" + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Whether {@code command} runs and exits 0 within 30 s. */
    static boolean succeeds(List<String> command, Path directory) {
        try {
            return run(command, directory, Map.of(), Duration.ofSeconds(30)).exitCode() == 0;
        } catch (IOException | IllegalStateException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
