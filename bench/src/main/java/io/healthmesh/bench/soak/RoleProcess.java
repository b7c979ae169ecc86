package io.healthmesh.bench.soak;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * One {@code healthmesh prober} or {@code healthmesh aggregator} process of the soak, started with
 * {@code --duration} so that it stops by itself even when the soak's own JVM dies without running its hooks.
 * Stopped with SIGTERM (the role closes cleanly) or SIGKILL (a crash).
 */
final class RoleProcess {

    private static final Logger LOG = LoggerFactory.getLogger(RoleProcess.class);
    /** How long a stop may take before the process is killed. */
    private static final long STOP_TIMEOUT_S = 30;

    private final SoakRole role;
    private final Process process;

    private RoleProcess(SoakRole role, Process process) {
        this.role = role;
        this.process = process;
    }

    /**
     * Starts {@code launcher role --config settings --duration stopAfter}, appending its output to {@code log}.
     *
     * @param launcher the JVM and its options up to the main class or jar (e.g. {@code java -Xmx256m -jar cli.jar})
     */
    static RoleProcess start(SoakRole role, List<String> launcher, Path settings, Path log, Duration stopAfter)
            throws IOException {
        requireNonNull(role, "role");
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(role.command(), "--config", settings.toString(), "--duration",
                Math.max(1, stopAfter.toSeconds()) + "s"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        LOG.info("{} started as pid {}", role.command(), process.pid());
        // a soak stopped by Ctrl-C must not leave a role running beside the next run
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "soak-reaper-" + process.pid()));
        return new RoleProcess(role, process);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the process with SIGKILL when {@code kill}, else SIGTERM, and waits for it (killing it after 30 s). */
    void stop(boolean kill) throws InterruptedException {
        if (kill) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        if (!process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
            LOG.warn("{} (pid {}) did not stop within {} s; killing it", role.command(), pid(), STOP_TIMEOUT_S);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
