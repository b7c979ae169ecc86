package io.healthmesh.prober.schedule;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.WorkedExample;
import io.healthmesh.prober.schedule.WindowRun.Flip;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each seed's worked example, with the product's own parameters (docs/PROFILES.md), through the real scheduler on a
 * manual clock and the aggregator's real state machine ({@link WindowRun}): a healthy backend starts hanging (every
 * probe takes the timeout), then answers again in 1 s. The windows are measured as the documents measure them.
 */
class ProfileWindowsTest {

    static Stream<Arguments> examples() {
        List<Arguments> out = new ArrayList<>();
        for (TargetProfile profile : TargetProfile.values()) {
            for (WorkedExample example : ProfileTable.of(profile).examples()) {
                out.add(Arguments.of(profile, example));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("examples")
    void theDocumentsWorkedExampleComesOutAsWritten(TargetProfile profile, WorkedExample example) {
        TargetSpec spec = example.toSpec(profile, "t", "10.0.0.1", 80);
        WindowRun run = new WindowRun(spec, Duration.ofMillis(example.responseMs()));
        long cycle = (long) spec.intervalMs() + spec.timeoutMs();

        run.advance(cycle * 6 + 500);       // HEALTHY by now
        run.backendUp(false);
        run.advance(cycle * 8);
        run.backendUp(true);
        run.advance(cycle * 8);

        List<Flip> flips = run.flips();
        assertThat(flips).extracting(Flip::to)
                .containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
        assertThat(flips.get(1).window()).as("to UNHEALTHY").isEqualTo(example.toUnhealthyMs());
        assertThat(flips.get(2).window()).as("to HEALTHY").isEqualTo(example.toHealthyMs());
    }

    @Test
    void clbKeepsANewTargetDetectingForIntervalTimesHealthyThreshold() {
        // 000 line 13: interval 2 s, healthy threshold 3 -> DETECTING for 6 s
        TargetSpec twoSeconds = ProfileTable.of(TargetProfile.TENCENT_CLB)
                .newSpec("t", "g", "10.0.0.1", 80, Protocol.TCP).withThresholds(3, 3).withTiming(2_000, 2_000);
        WindowRun run = new WindowRun(twoSeconds, Duration.ZERO);
        run.advance(10_000);
        List<Flip> flips = run.flips();
        assertThat(flips.get(0).to()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(flips.get(0).atMs()).as("DETECTING since 0").isEqualTo(6_000);
        assertThat(run.engine.startMillis("t")).startsWith(2_000L, 4_000L, 6_000L);
    }
}
