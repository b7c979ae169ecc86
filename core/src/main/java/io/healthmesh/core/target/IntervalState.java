package io.healthmesh.core.target;

import io.healthmesh.core.health.HealthStatus;

import static java.util.Objects.requireNonNull;

/**
 * Which interval a prober uses for one target next (BEHAVIOUR.md section 5b): its own view of the target's state,
 * kept from its own results, since a prober never reads the aggregator's state.
 *
 * <p>It counts conclusive results the way the aggregator's threshold machine does (a success resets the failures,
 * a failure the successes; {@code INCONCLUSIVE} is left out, not counted and not a reset), so that with the same
 * results and thresholds it reaches HEALTHY and UNHEALTHY on the same result as the aggregator's machine of this
 * region. From that it picks a {@link Phase}:
 * <ul>
 *   <li>{@link Phase#PENDING} ({@code fastIntervalMs}) from the first result that disagrees with the believed state
 *       (a failure while HEALTHY or not yet decided, a success while UNHEALTHY) until a threshold decides the state
 *       either way, or an agreeing result ends the run;</li>
 *   <li>{@link Phase#DOWN} ({@code downIntervalMs}) while UNHEALTHY with no success in the current run;</li>
 *   <li>{@link Phase#STEADY} ({@code intervalMs}) otherwise, including a fresh schedule with no result yet.</li>
 * </ul>
 * A fresh schedule (a prober start, a partition that moved here, a new generation) starts {@link #START}: DETECTING
 * with no counts, paced like HEALTHY. Successes then need no fast probes; a failure does start the fast phase.
 *
 * @param believed DETECTING (not decided by this prober yet), HEALTHY or UNHEALTHY
 * @param successes successes in a row (0 when the last conclusive result failed)
 * @param failures failures in a row (0 when the last conclusive result succeeded)
 */
public record IntervalState(HealthStatus believed, int successes, int failures) {

    /** A schedule with no conclusive result yet. */
    public static final IntervalState START = new IntervalState(HealthStatus.DETECTING, 0, 0);

    /** The three paces of a target. */
    public enum Phase {
        /** {@code intervalMs}: the state is what the last results say, or nothing says otherwise yet. */
        STEADY,
        /** {@code fastIntervalMs}: a result disagreed with the state and no threshold has decided since. */
        PENDING,
        /** {@code downIntervalMs}: UNHEALTHY and the latest conclusive result failed. */
        DOWN
    }

    public IntervalState {
        requireNonNull(believed, "believed");
        if (believed == HealthStatus.DISABLED) {
            throw new IllegalArgumentException("believed: DISABLED (expected: DETECTING, HEALTHY or UNHEALTHY)");
        }
        if (successes < 0 || failures < 0 || (successes > 0 && failures > 0)) {
            throw new IllegalArgumentException("counts: " + successes + " successes, " + failures
                    + " failures (expected: 0 or more, at most one of them above 0)");
        }
    }

    /** The state after one conclusive result, under the target's thresholds. */
    public IntervalState after(boolean success, int healthyThreshold, int unhealthyThreshold) {
        IntervalState counted = success
                ? new IntervalState(believed, saturated(successes), 0)
                : new IntervalState(believed, 0, saturated(failures));
        return counted.decide(healthyThreshold, unhealthyThreshold);
    }

    /** The same counts judged under new thresholds (only the thresholds of a definition changed). */
    public IntervalState rethreshold(int healthyThreshold, int unhealthyThreshold) {
        return decide(healthyThreshold, unhealthyThreshold);
    }

    /** The phase this state is in. */
    public Phase phase() {
        if (believed == HealthStatus.UNHEALTHY) {
            return successes == 0 ? Phase.DOWN : Phase.PENDING;
        }
        return failures == 0 ? Phase.STEADY : Phase.PENDING;
    }

    /** The interval in force in this state for {@code spec}, in ms. */
    public int intervalMs(TargetSpec spec) {
        return switch (phase()) {
            case STEADY -> spec.intervalMs();
            case PENDING -> spec.fastIntervalOrDefault();
            case DOWN -> spec.downIntervalOrDefault();
        };
    }

    private IntervalState decide(int healthyThreshold, int unhealthyThreshold) {
        if (successes >= healthyThreshold && believed != HealthStatus.HEALTHY) {
            return new IntervalState(HealthStatus.HEALTHY, successes, failures);
        }
        if (failures >= unhealthyThreshold && believed != HealthStatus.UNHEALTHY) {
            return new IntervalState(HealthStatus.UNHEALTHY, successes, failures);
        }
        return this;
    }

    private static int saturated(int count) {
        return count == Integer.MAX_VALUE ? count : count + 1;
    }
}
