package io.healthmesh.e2e;

import io.healthmesh.e2e.StackExtension.Stack;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.schema.GroupHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A group whose every member is down fails open; one member back closes it again (BEHAVIOUR.md section 3). */
@ExtendWith(StackExtension.class)
class GroupFailOpenIT {

    private static final String GROUP = "e2e-web";
    private static final Duration FLIP = Duration.ofSeconds(60);

    @Test
    void groupFailsOpenWhenEveryMemberIsDownAndClosesWhenOneIsBack(Stack stack) {
        HealthmeshStack containers = stack.containers();
        containers.applyTargets(TargetsYaml.of(List.of(
                new Target("e2e-web-1", GROUP, Backend.WEB_1, containers.address(Backend.WEB_1), 1000, List.of("a")),
                new Target("e2e-web-2", GROUP, Backend.WEB_2, containers.address(Backend.WEB_2), 1000, List.of("a")))));
        stack.groups().await(0, Duration.ofSeconds(120), GROUP + " with both members HEALTHY",
                e -> GROUP.equals(e.key()) && e.value() != null && e.value().getHealthy() == 2);

        int before = stack.groups().size();
        try {
            containers.stop(Backend.WEB_1.containerName);
            containers.stop(Backend.WEB_2.containerName);
            GroupHealth open = stack.groups().await(before, FLIP, GROUP + " failOpen=true with every member down",
                    e -> GROUP.equals(e.key()) && e.value() != null && e.value().getFailOpen()).value();
            assertThat(open.getHealthy()).isZero();
            assertThat(open.getUnhealthy()).isEqualTo(2);
            // fail-open: every member is routable
            assertThat(open.getRoutable()).containsExactlyInAnyOrder("e2e-web-1", "e2e-web-2");

            int opened = stack.groups().size();
            containers.start(Backend.WEB_1.containerName);
            GroupHealth closed = stack.groups().await(opened, FLIP, GROUP + " failOpen=false with one member back",
                    e -> GROUP.equals(e.key()) && e.value() != null && !e.value().getFailOpen()).value();
            assertThat(closed.getHealthy()).isEqualTo(1);
            assertThat(closed.getRoutable()).containsExactly("e2e-web-1");
        } finally {
            containers.start(Backend.WEB_1.containerName);
            containers.start(Backend.WEB_2.containerName);
        }
    }
}
