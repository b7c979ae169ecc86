package io.healthmesh.bench.peers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A peer's process: started from its binary, its output read line by line on a daemon thread (so that
 * the peer never blocks on a full pipe), destroyed on close.
 */
final class PeerProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeerProcess.class);

    private static final int LOGGED_LINES = 10_000;

    private final Process process;

    private PeerProcess(Process process) {
        this.process = process;
    }

    /**
     * Starts {@code command}; each line of its merged output goes to {@code lines} as soon as it is read, and the
     * first {@value #LOGGED_LINES} lines to {@code <workDir>/output.log} for diagnosis.
     */
    static PeerProcess start(List<String> command, Path workDir, Consumer<String> lines) throws IOException {
        Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
        Path log = workDir.resolve("output.log");
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log)) {
                int logged = 0;
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.accept(line);
                    if (logged++ < LOGGED_LINES) {
                        out.write(line);
                        out.newLine();
                    }
                }
            } catch (IOException e) {
                LOG.debug("output of {} ended", command.get(0), e);
            }
        }, "peer-output-" + command.get(0));
        reader.setDaemon(true);
        reader.start();
        return new PeerProcess(process);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long cpuNanos() {
        return ProcessCpu.cpuNanos(process.pid());
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
