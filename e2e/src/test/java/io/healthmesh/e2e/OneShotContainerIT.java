package io.healthmesh.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link OneShotContainer} on the healthmesh image: a command that exits non-zero is an answer (its code and its
 * output), and a container that cannot run its command is an error that names the cause, never an exit code 0.
 */
class OneShotContainerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static E2eImages images;

    @BeforeAll
    static void containerTier() {
        ContainerTier.assumeAvailable();
        images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
    }

    @Test
    void aNonZeroExitIsReportedWithItsOutput() {
        OneShotContainer.Ended ended = OneShotContainer.run("healthmesh no-such-command",
                new GenericContainer<>(images.healthmesh()).withCommand("no-such-command"), TIMEOUT);

        assertThat(ended.exitCode()).as("bad usage, docs/CLI.md's exit codes").isEqualTo(2);
        assertThat(ended.output()).contains("no-such-command");
    }

    @Test
    void aContainerThatCannotStartItsCommandFailsWithTheCause() {
        GenericContainer<?> broken = new GenericContainer<>(images.healthmesh())
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/no/such/entrypoint"));

        assertThatThrownBy(() -> OneShotContainer.run("/no/such/entrypoint", broken, TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("/no/such/entrypoint could not be launched: ")
                .hasMessageContaining("/no/such/entrypoint: no such file or directory");
    }
}
