package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import static java.util.Objects.requireNonNull;

/**
 * The threshold state machine of BEHAVIOUR.md section 2, for one target as seen from one region. Immutable: every step
 * returns a {@link Transition} holding the next machine.
 *
 * <ul>
 *   <li>A success resets the failure count and adds one success; a failure does the opposite (the counters reset
 *       each other, so at most one of them is non-zero).</li>
 *   <li>{@code healthy} successes in a row turn DETECTING or UNHEALTHY into HEALTHY; {@code unhealthy} failures
 *       in a row turn DETECTING or HEALTHY into UNHEALTHY. Nothing else changes the status through results.</li>
 *   <li>Changing only the thresholds keeps the counters and re-evaluates them ({@link #rethreshold}).</li>
 *   <li>A new generation (changed probe parameters) resets to DETECTING with zero counters ({@link #regenerate}).</li>
 *   <li>DISABLED ignores results; enabling starts again from DETECTING.</li>
 * </ul>
 *
 * @param generation the probe-parameter fingerprint this machine judges
 * @param status the current status
 * @param consecutiveSuccesses successes in a row (0 when the last result failed)
 * @param consecutiveFailures failures in a row (0 when the last result succeeded)
 */
public record HealthStateMachine(long generation, HealthStatus status, int consecutiveSuccesses,
                                 int consecutiveFailures) {

    public HealthStateMachine {
        requireNonNull(status, "status");
        if (consecutiveSuccesses < 0) {
            throw new IllegalArgumentException("consecutiveSuccesses: " + consecutiveSuccesses + " (expected: 0 or more)");
        }
        if (consecutiveFailures < 0) {
            throw new IllegalArgumentException("consecutiveFailures: " + consecutiveFailures + " (expected: 0 or more)");
        }
        if (consecutiveSuccesses > 0 && consecutiveFailures > 0) {
            throw new IllegalArgumentException("counters: " + consecutiveSuccesses + " successes and "
                    + consecutiveFailures + " failures (expected: at most one of them above 0)");
        }
        if (status == HealthStatus.DISABLED && (consecutiveSuccesses > 0 || consecutiveFailures > 0)) {
            throw new IllegalArgumentException("counters: not 0 while DISABLED (expected: 0)");
        }
    }

    /** A new machine for {@code generation}: DETECTING, no results yet. */
    public static HealthStateMachine detecting(long generation) {
        return new HealthStateMachine(generation, HealthStatus.DETECTING, 0, 0);
    }

    /** A machine with checking switched off. */
    public static HealthStateMachine disabled(long generation) {
        return new HealthStateMachine(generation, HealthStatus.DISABLED, 0, 0);
    }

    /**
     * The status this machine stands behind when it votes in a quorum: HEALTHY or UNHEALTHY only while its last
     * result confirms it; a HEALTHY machine that has started failing, or an UNHEALTHY one that has started succeeding,
     * is on its way to change and votes DETECTING (undecided). This is what keeps two regions flapping out of phase
     * from flipping the overall status when one's recovery and the other's failure land at the same moment; with a
     * single region it changes nothing, because an undecided vote keeps the previous overall status.
     */
    public HealthStatus vote() {
        return switch (status) {
            case HEALTHY -> consecutiveFailures == 0 ? HealthStatus.HEALTHY : HealthStatus.DETECTING;
            case UNHEALTHY -> consecutiveSuccesses == 0 ? HealthStatus.UNHEALTHY : HealthStatus.DETECTING;
            case DETECTING, DISABLED -> status;
        };
    }

    /** Applies one result. DISABLED ignores it. */
    public Transition observe(boolean success, Thresholds thresholds) {
        requireNonNull(thresholds, "thresholds");
        if (status == HealthStatus.DISABLED) {
            return new Transition.Unchanged(this);
        }
        HealthStateMachine counted = success
                ? new HealthStateMachine(generation, status, saturatedIncrement(consecutiveSuccesses), 0)
                : new HealthStateMachine(generation, status, 0, saturatedIncrement(consecutiveFailures));
        return counted.evaluate(thresholds, status);
    }

    /**
     * Re-evaluates the counters under new thresholds, keeping them: a DETECTING machine with two successes
     * becomes HEALTHY when the healthy threshold drops to two. Raising a threshold never undoes a status.
     */
    public Transition rethreshold(Thresholds thresholds) {
        requireNonNull(thresholds, "thresholds");
        if (status == HealthStatus.DISABLED) {
            return new Transition.Unchanged(this);
        }
        return evaluate(thresholds, status);
    }

    /** Starts over under a new generation; the same generation changes nothing. */
    public Transition regenerate(long newGeneration) {
        if (newGeneration == generation) {
            return new Transition.Unchanged(this);
        }
        HealthStateMachine fresh = status == HealthStatus.DISABLED ? disabled(newGeneration) : detecting(newGeneration);
        return fresh.status == status ? new Transition.Unchanged(fresh) : new Transition.Changed(fresh, status);
    }

    /** Switches checking off: DISABLED, counters cleared. */
    public Transition disable() {
        HealthStateMachine off = disabled(generation);
        return status == HealthStatus.DISABLED ? new Transition.Unchanged(off) : new Transition.Changed(off, status);
    }

    /** Switches checking on again: a disabled machine starts over in DETECTING; an enabled one is unchanged. */
    public Transition enable() {
        if (status != HealthStatus.DISABLED) {
            return new Transition.Unchanged(this);
        }
        return new Transition.Changed(detecting(generation), HealthStatus.DISABLED);
    }

    private Transition evaluate(Thresholds thresholds, HealthStatus before) {
        HealthStatus next = status;
        if (consecutiveSuccesses >= thresholds.healthy() && status != HealthStatus.HEALTHY) {
            next = HealthStatus.HEALTHY;
        } else if (consecutiveFailures >= thresholds.unhealthy() && status != HealthStatus.UNHEALTHY) {
            next = HealthStatus.UNHEALTHY;
        }
        HealthStateMachine after = next == status
                ? this : new HealthStateMachine(generation, next, consecutiveSuccesses, consecutiveFailures);
        return next == before ? new Transition.Unchanged(after) : new Transition.Changed(after, before);
    }

    private static int saturatedIncrement(int count) {
        // a target probed every 100 ms would need 6.8 years to overflow; saturate instead of wrapping anyway
        return count == Integer.MAX_VALUE ? count : count + 1;
    }
}
