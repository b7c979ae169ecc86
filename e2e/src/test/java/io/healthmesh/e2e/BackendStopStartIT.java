package io.healthmesh.e2e;

import io.healthmesh.e2e.StackExtension.Stack;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Stopping a backend's container turns its target UNHEALTHY; starting it again turns it HEALTHY. */
@ExtendWith(StackExtension.class)
class BackendStopStartIT {

    private static final String TARGET = "e2e-solo-tcp";
    private static final Duration FLIP = Duration.ofSeconds(60);

    @Test
    void stoppedBackendTurnsUnhealthyAndStartedAgainTurnsHealthy(Stack stack) {
        Backend backend = Backend.SOLO_TCP;
        stack.containers().applyTargets(TargetsYaml.of(List.of(new Target(TARGET, "e2e-solo", backend,
                stack.containers().address(backend), 1000, List.of("a")))));
        stack.states().await(0, Duration.ofSeconds(120), TARGET + " HEALTHY",
                e -> TARGET.equals(e.key()) && e.value() != null && e.value().getStatus() == HealthStatus.HEALTHY);

        int before = stack.states().size();
        stack.containers().stop(backend.containerName);
        TargetHealth down = stack.states().await(before, FLIP, TARGET + " UNHEALTHY after its backend stopped",
                e -> TARGET.equals(e.key()) && e.value() != null
                        && e.value().getStatus() == HealthStatus.UNHEALTHY).value();
        assertThat(down.getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(down.getReason()).isNotNull();

        int afterDown = stack.states().size();
        stack.containers().start(backend.containerName);
        TargetHealth up = stack.states().await(afterDown, FLIP, TARGET + " HEALTHY after its backend started",
                e -> TARGET.equals(e.key()) && e.value() != null
                        && e.value().getStatus() == HealthStatus.HEALTHY).value();
        assertThat(up.getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(up.getSinceMs()).isGreaterThan(down.getSinceMs());
    }
}
