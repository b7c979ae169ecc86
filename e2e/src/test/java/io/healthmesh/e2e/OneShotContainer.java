package io.healthmesh.e2e;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse.ContainerState;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.ToStringConsumer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.utility.DockerStatus;

import java.time.Duration;

/**
 * Runs one command (the healthmesh CLI, mostly) in a container that ends with it, and says how it ended: its exit
 * code and its output, whatever the code.
 *
 * <p>Testcontainers' own one-shot check cannot do this: a non-zero exit fails its start, and a failed start removes
 * the container and forgets its id, so the exit code and the output are gone and the caller sees only "Container
 * startup failed". Here the start succeeds once the container has ended, however it ended, and the state is read
 * afterwards: a container that never ran (still {@code created}, or without a start time) is an error, never exit 0.
 * When the container cannot be launched at all, or does not end in time, the error's first line carries the root
 * cause (what a CI log's one-line summary shows) and the output it gave so far.
 */
final class OneShotContainer {

    /** How a command ended: its exit code and everything it wrote to stdout and stderr. */
    record Ended(int exitCode, String output) {
    }

    private OneShotContainer() {
    }

    /**
     * Starts {@code container} (image, command, network, files already configured), waits at most {@code timeout}
     * for it to end and removes it.
     *
     * @param what the command, for errors (e.g. {@code healthmesh replay ...})
     */
    static Ended run(String what, GenericContainer<?> container, Duration timeout) {
        ToStringConsumer output = new ToStringConsumer();
        UntilEnded untilEnded = new UntilEnded();
        container.withLogConsumer(output).withStartupCheckStrategy(untilEnded.withTimeout(timeout));
        try (container) {
            try {
                container.start();
            } catch (RuntimeException e) {
                String status = untilEnded.lastStatus;
                String why = status == null ? "could not be launched: " + rootCause(e)
                        : untilEnded.lastLive ? "did not end within " + timeout.toSeconds() + " s"
                        : "failed after its container was " + status + ": " + rootCause(e);
                throw new IllegalStateException(what + " " + why + "\n" + outputOf(output.toUtf8String()), e);
            }
            ContainerState state = container.getDockerClient().inspectContainerCmd(container.getContainerId()).exec()
                    .getState();
            String logs = container.getLogs();
            if (!ran(state)) {
                throw new IllegalStateException(what + " did not run: its container is " + state.getStatus()
                        + " (started at " + state.getStartedAt() + ", finished at " + state.getFinishedAt()
                        + ", exit code " + state.getExitCodeLong() + ", error '" + state.getError() + "')\n"
                        + outputOf(logs));
            }
            return new Ended(state.getExitCodeLong().intValue(), logs);
        }
    }

    /** Started, ended by itself and reported an exit code: anything else has no exit code to believe. */
    private static boolean ran(ContainerState state) {
        return "exited".equals(state.getStatus()) && state.getExitCodeLong() != null
                && DockerStatus.isDockerTimestampNonEmpty(state.getStartedAt())
                && DockerStatus.isDockerTimestampNonEmpty(state.getFinishedAt());
    }

    private static String outputOf(String logs) {
        return logs.isBlank() ? "(no output)" : "its output:\n" + logs;
    }

    /** The innermost cause, as {@code Type: message}: what went wrong rather than which layer reported it. */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /**
     * The start is done when the container no longer runs, whatever its exit code; the caller reads the state. Keeps
     * the last state seen, so a failed start tells "never checked" (the launch failed) from "still running at the
     * timeout".
     */
    private static final class UntilEnded extends StartupCheckStrategy {

        private volatile String lastStatus;
        private volatile boolean lastLive;

        @Override
        public StartupStatus checkStartupState(DockerClient docker, String containerId) {
            ContainerState state = getCurrentState(docker, containerId);
            lastLive = Boolean.TRUE.equals(state.getRunning()) || Boolean.TRUE.equals(state.getPaused())
                    || Boolean.TRUE.equals(state.getRestarting());
            lastStatus = state.getStatus();
            return lastLive ? StartupStatus.NOT_YET_KNOWN : StartupStatus.SUCCESSFUL;
        }
    }
}
