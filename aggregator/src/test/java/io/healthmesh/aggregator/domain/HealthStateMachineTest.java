package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HealthStateMachineTest {

    private static final Thresholds THREE_THREE = new Thresholds(3, 3);
    private static final long GEN = 42L;

    private static HealthStateMachine feed(HealthStateMachine m, Thresholds t, boolean... results) {
        for (boolean r : results) {
            m = m.observe(r, t).state();
        }
        return m;
    }

    @Test
    void detectingBecomesHealthyAfterHealthyThresholdSuccesses() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true);
        assertThat(m.status()).isEqualTo(DETECTING);
        assertThat(m.consecutiveSuccesses()).isEqualTo(2);
        Transition t = m.observe(true, THREE_THREE);
        assertThat(t).isInstanceOf(Transition.Changed.class);
        assertThat(((Transition.Changed) t).from()).isEqualTo(DETECTING);
        assertThat(((Transition.Changed) t).to()).isEqualTo(HEALTHY);
        assertThat(t.state().consecutiveSuccesses()).isEqualTo(3);
    }

    @Test
    void detectingBecomesUnhealthyAfterUnhealthyThresholdFailures() {
        Thresholds t = new Thresholds(3, 2);
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), t, false);
        assertThat(m.status()).isEqualTo(DETECTING);
        Transition step = m.observe(false, t);
        assertThat(step.changed()).isTrue();
        assertThat(step.state().status()).isEqualTo(UNHEALTHY);
        assertThat(step.state().consecutiveFailures()).isEqualTo(2);
    }

    @Test
    void healthyBecomesUnhealthyOnlyAfterThresholdFailuresInARow() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true);
        m = feed(m, THREE_THREE, false, false, true, false, false);
        assertThat(m.status()).isEqualTo(HEALTHY);
        assertThat(m.consecutiveFailures()).isEqualTo(2);
        Transition step = m.observe(false, THREE_THREE);
        assertThat(step).isEqualTo(new Transition.Changed(new HealthStateMachine(GEN, UNHEALTHY, 0, 3), HEALTHY));
    }

    @Test
    void unhealthyBecomesHealthyOnlyAfterThresholdSuccessesInARow() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, false, false, false);
        m = feed(m, THREE_THREE, true, true, false, true, true);
        assertThat(m.status()).isEqualTo(UNHEALTHY);
        Transition step = m.observe(true, THREE_THREE);
        assertThat(step).isEqualTo(new Transition.Changed(new HealthStateMachine(GEN, HEALTHY, 3, 0), UNHEALTHY));
    }

    @Test
    void countersResetEachOther() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true);
        m = m.observe(false, THREE_THREE).state();
        assertThat(m.consecutiveSuccesses()).isZero();
        assertThat(m.consecutiveFailures()).isEqualTo(1);
        m = m.observe(true, THREE_THREE).state();
        assertThat(m.consecutiveSuccesses()).isEqualTo(1);
        assertThat(m.consecutiveFailures()).isZero();
    }

    @Test
    void furtherSuccessesWhileHealthyAreUnchangedButCounted() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true);
        Transition step = m.observe(true, THREE_THREE);
        assertThat(step).isInstanceOf(Transition.Unchanged.class);
        assertThat(step.state().consecutiveSuccesses()).isEqualTo(4);
    }

    @Test
    void thresholdOfOneFlipsOnEveryChange() {
        Thresholds ones = new Thresholds(1, 1);
        HealthStateMachine m = HealthStateMachine.detecting(GEN);
        assertThat(m.observe(true, ones).state().status()).isEqualTo(HEALTHY);
        assertThat(feed(m, ones, true, false).status()).isEqualTo(UNHEALTHY);
        assertThat(feed(m, ones, true, false, true).status()).isEqualTo(HEALTHY);
    }

    @Test
    void loweringTheHealthyThresholdKeepsCountersAndReevaluates() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true);
        Transition step = m.rethreshold(new Thresholds(2, 3));
        assertThat(step).isEqualTo(new Transition.Changed(new HealthStateMachine(GEN, HEALTHY, 2, 0), DETECTING));
    }

    @Test
    void loweringTheUnhealthyThresholdTurnsAHealthyMachineWithEnoughFailuresUnhealthy() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true, false, false);
        Transition step = m.rethreshold(new Thresholds(3, 2));
        assertThat(step.changed()).isTrue();
        assertThat(step.state()).isEqualTo(new HealthStateMachine(GEN, UNHEALTHY, 0, 2));
    }

    @Test
    void raisingAThresholdNeverUndoesAStatusAndKeepsCounters() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true);
        Transition step = m.rethreshold(new Thresholds(10, 10));
        assertThat(step).isEqualTo(new Transition.Unchanged(m));
        // the next successes keep counting from 3 under the new threshold
        assertThat(feed(step.state(), new Thresholds(10, 10), false, false).status()).isEqualTo(HEALTHY);
    }

    @Test
    void newGenerationResetsToDetectingWithZeroCounters() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true, true);
        Transition step = m.regenerate(GEN + 1);
        assertThat(step).isEqualTo(new Transition.Changed(HealthStateMachine.detecting(GEN + 1), HEALTHY));
        assertThat(HealthStateMachine.detecting(GEN).observe(true, THREE_THREE).state().regenerate(GEN + 1))
                .isEqualTo(new Transition.Unchanged(HealthStateMachine.detecting(GEN + 1)));
    }

    @Test
    void sameGenerationChangesNothing() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true);
        assertThat(m.regenerate(GEN)).isEqualTo(new Transition.Unchanged(m));
    }

    @Test
    void disabledIgnoresResultsAndEnablingStartsOverInDetecting() {
        HealthStateMachine m = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true);
        Transition off = m.disable();
        assertThat(off).isEqualTo(new Transition.Changed(HealthStateMachine.disabled(GEN), HEALTHY));
        assertThat(off.state().observe(false, THREE_THREE)).isEqualTo(new Transition.Unchanged(off.state()));
        assertThat(off.state().rethreshold(new Thresholds(1, 1))).isEqualTo(new Transition.Unchanged(off.state()));
        assertThat(off.state().disable()).isEqualTo(new Transition.Unchanged(off.state()));
        assertThat(off.state().regenerate(GEN + 1))
                .isEqualTo(new Transition.Unchanged(HealthStateMachine.disabled(GEN + 1)));
        assertThat(off.state().enable())
                .isEqualTo(new Transition.Changed(HealthStateMachine.detecting(GEN), DISABLED));
        assertThat(m.enable()).isEqualTo(new Transition.Unchanged(m));
    }

    @Test
    void votesOnlyForAStatusItsLastResultConfirms() {
        HealthStateMachine healthy = feed(HealthStateMachine.detecting(GEN), THREE_THREE, true, true, true);
        assertThat(healthy.vote()).isEqualTo(HEALTHY);
        assertThat(healthy.observe(false, THREE_THREE).state().vote()).isEqualTo(DETECTING);
        HealthStateMachine unhealthy = feed(HealthStateMachine.detecting(GEN), THREE_THREE, false, false, false);
        assertThat(unhealthy.vote()).isEqualTo(UNHEALTHY);
        assertThat(unhealthy.observe(true, THREE_THREE).state().vote()).isEqualTo(DETECTING);
        assertThat(feed(HealthStateMachine.detecting(GEN), THREE_THREE, true).vote()).isEqualTo(DETECTING);
        assertThat(HealthStateMachine.disabled(GEN).vote()).isEqualTo(DISABLED);
    }

    @Test
    void refusesImpossibleStates() {
        assertThatThrownBy(() -> new HealthStateMachine(GEN, HEALTHY, 1, 1))
                .hasMessage("counters: 1 successes and 1 failures (expected: at most one of them above 0)");
        assertThatThrownBy(() -> new HealthStateMachine(GEN, HEALTHY, -1, 0))
                .hasMessage("consecutiveSuccesses: -1 (expected: 0 or more)");
        assertThatThrownBy(() -> new HealthStateMachine(GEN, DISABLED, 1, 0))
                .hasMessage("counters: not 0 while DISABLED (expected: 0)");
        assertThatThrownBy(() -> new Thresholds(0, 3)).hasMessage("healthyThreshold: 0 (expected: 1 or more)");
        assertThatThrownBy(() -> new Thresholds(3, 0)).hasMessage("unhealthyThreshold: 0 (expected: 1 or more)");
        assertThatThrownBy(() -> new Transition.Changed(HealthStateMachine.detecting(GEN), DETECTING))
                .hasMessageContaining("from: DETECTING");
    }

    @Test
    void countersSaturateInsteadOfWrapping() {
        HealthStateMachine m = new HealthStateMachine(GEN, HEALTHY, Integer.MAX_VALUE, 0);
        assertThat(m.observe(true, THREE_THREE).state().consecutiveSuccesses()).isEqualTo(Integer.MAX_VALUE);
    }

    /**
     * The reference model: the status after a sequence is decided by the latest point at which a run of
     * {@code healthy} successes or {@code unhealthy} failures completed, DETECTING when there is none; counters are the
     * lengths of the trailing runs. A declarative definition, independent of the machine's counters.
     */
    static HealthStatus referenceStatus(List<Boolean> results, Thresholds t) {
        for (int end = results.size(); end > 0; end--) {
            if (runEndsAt(results, end, true, t.healthy())) {
                return HEALTHY;
            }
            if (runEndsAt(results, end, false, t.unhealthy())) {
                return UNHEALTHY;
            }
        }
        return DETECTING;
    }

    private static boolean runEndsAt(List<Boolean> results, int end, boolean value, int length) {
        if (end < length) {
            return false;
        }
        for (int i = end - length; i < end; i++) {
            if (results.get(i) != value) {
                return false;
            }
        }
        return true;
    }

    static int trailingRun(List<Boolean> results, boolean value) {
        int n = 0;
        for (int i = results.size() - 1; i >= 0 && results.get(i) == value; i--) {
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @ValueSource(longs = {1L, 7L, 2024L, 31337L, 99991L})
    void randomSequencesMatchTheReferenceModel(long seed) {
        Random random = new Random(seed);
        for (int sequence = 0; sequence < 400; sequence++) {
            Thresholds t = new Thresholds(1 + random.nextInt(10), 1 + random.nextInt(10));
            // bias towards runs so that both thresholds are reached often
            double successBias = random.nextDouble();
            List<Boolean> history = new ArrayList<>();
            HealthStateMachine m = HealthStateMachine.detecting(GEN);
            for (int i = 0; i < 120; i++) {
                boolean success = random.nextDouble() < successBias;
                HealthStatus before = m.status();
                Transition step = m.observe(success, t);
                history.add(success);
                m = step.state();
                assertThat(m.status()).as("seed %d, thresholds %s, history %s", seed, t, history)
                        .isEqualTo(referenceStatus(history, t));
                assertThat(m.consecutiveSuccesses()).isEqualTo(trailingRun(history, true));
                assertThat(m.consecutiveFailures()).isEqualTo(trailingRun(history, false));
                assertThat(step.changed()).isEqualTo(before != m.status());
            }
        }
    }
}
