package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The validator's rules for {@code fastIntervalMs} and {@code downIntervalMs}: bounds, the timeout, profiles. */
class StateIntervalRulesTest {

    private static final TargetSpec TCP = TargetSpec.of("web-1", "pool-a", "10.0.0.1", 8080, Protocol.TCP)
            .withTiming(5_000, 1_000);
    private static final TargetSpec HTTP = TargetSpec.of("web-2", "pool-a", "10.0.0.2", 80, Protocol.HTTP)
            .withTiming(5_000, 2_000);

    private static List<String> messages(TargetSpec spec) {
        return TargetValidator.validate(spec).stream().map(Violation::toString).toList();
    }

    @Test
    void absentOrInRangeIsValid() {
        assertThat(messages(TCP)).isEmpty();
        assertThat(messages(TCP.withIntervals(1_000, 60_000))).isEmpty();
        assertThat(messages(TCP.withIntervals(5_000, 100_000))).isEmpty();
        assertThat(messages(TCP.withIntervals(null, 2_000))).as("a down interval may be shorter").isEmpty();
    }

    @Test
    void boundsAreThoseOfTheInterval() {
        assertThat(messages(HTTP.withIntervals(99, 600_001))).containsExactly(
                "fastIntervalMs: 99 (expected: 100..600000)",
                "downIntervalMs: 600001 (expected: 100..600000)");
    }

    @Test
    void theFastIntervalIsNoLongerThanTheInterval() {
        assertThat(messages(TCP.withIntervals(6_000, null)))
                .containsExactly("fastIntervalMs: 6000 (expected: at most intervalMs = 5000)");
    }

    @Test
    void aFixedRateProbeMustFitEachIntervalInForce() {
        assertThat(messages(TCP.withIntervals(500, 800))).containsExactly(
                "fastIntervalMs: 500 (expected: at least timeoutMs = 1000 (a fixed-rate probe must end before the"
                        + " next one starts))",
                "downIntervalMs: 800 (expected: at least timeoutMs = 1000 (a fixed-rate probe must end before the"
                        + " next one starts))");
        // at a fixed delay the next probe waits for this one: any interval fits
        assertThat(messages(HTTP.withIntervals(500, 800))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = TargetProfile.class, names = "GENERIC", mode = EnumSource.Mode.EXCLUDE)
    void everyProductProfileRefusesThemNamingTheProduct(TargetProfile profile) {
        TargetSpec spec = ProfileTable.of(profile).newSpec("t", "g", "10.0.0.1", 80, Protocol.HTTP)
                .withIntervals(ProfileTable.of(profile).defaultIntervalMs(), null);
        assertThat(messages(spec)).containsExactly("fastIntervalMs: " + ProfileTable.of(profile).defaultIntervalMs()
                + " (expected: absent under " + profile + ": " + profile.product()
                + " has one interval for every state)");
        assertThat(messages(spec.withIntervals(null, 60_000))).containsExactly("downIntervalMs: 60000 (expected: "
                + "absent under " + profile + ": " + profile.product() + " has one interval for every state)");
        assertThat(messages(spec.withIntervals(null, null))).isEmpty();
    }

    @Test
    void theRefusalNamesTheProduct() {
        TargetSpec clb = ProfileTable.of(TargetProfile.TENCENT_CLB).newSpec("t", "g", "10.0.0.1", 80, Protocol.TCP)
                .withIntervals(null, 60_000);
        assertThat(messages(clb)).containsExactly("downIntervalMs: 60000 (expected: absent under TENCENT_CLB: "
                + "Tencent Cloud CLB has one interval for every state)");
    }
}
