package io.healthmesh.core.health;

/**
 * A group's panic threshold: below {@code minHealthyPercent} percent of its members, or below
 * {@code minHealthyCount} members, HEALTHY or DISABLED, a group fails open (every member is routed to), because a
 * checker that sees most of a fleet fail at once is more often wrong than the fleet (Envoy's panic threshold, Route
 * 53's "healthy when at least N of M are"). Either bound may be absent; {@link #NONE} has neither and is the rule
 * without a threshold (fail open only when no member is routable).
 *
 * <p>Hysteresis: a group in panic leaves it only once it is at or above the threshold plus a margin
 * ({@code leaveMarginPercent} percentage points and {@code leaveMarginCount} members), so a group hovering at the
 * threshold does not flap between all members and the few healthy ones. A margin that would ask for more than the
 * whole group is capped at the whole group. The margins are counts, not times, so the decision is a pure function of
 * the group's stored state and the change applied: the live topology and replay give the same answer.
 *
 * @param minHealthyPercent  {@code 1..100}, or {@code null}: no percentage bound
 * @param minHealthyCount    {@code 1..}{@value #MAX_COUNT}, or {@code null}: no count bound
 * @param leaveMarginPercent {@code 0..}{@value #MAX_MARGIN_PERCENT} percentage points above {@code minHealthyPercent}
 * @param leaveMarginCount   {@code 0..}{@value #MAX_MARGIN_COUNT} members above {@code minHealthyCount}
 */
public record PanicThreshold(Integer minHealthyPercent, Integer minHealthyCount, int leaveMarginPercent,
                             int leaveMarginCount) {

    /** Largest {@code minHealthyCount}. */
    public static final int MAX_COUNT = 1_000_000;
    /** Largest {@code leaveMarginPercent}. */
    public static final int MAX_MARGIN_PERCENT = 50;
    /** Largest {@code leaveMarginCount}. */
    public static final int MAX_MARGIN_COUNT = 10_000;
    /** {@code leaveMarginPercent} when a policy does not say. */
    public static final int DEFAULT_MARGIN_PERCENT = 5;
    /** {@code leaveMarginCount} when a policy does not say. */
    public static final int DEFAULT_MARGIN_COUNT = 1;
    /** No threshold: a group fails open only when no member is HEALTHY or DISABLED. */
    public static final PanicThreshold NONE = new PanicThreshold(null, null, 0, 0);

    public PanicThreshold {
        if (minHealthyPercent != null && (minHealthyPercent < 1 || minHealthyPercent > 100)) {
            throw new IllegalArgumentException("minHealthyPercent: " + minHealthyPercent + " (expected: 1..100)");
        }
        if (minHealthyCount != null && (minHealthyCount < 1 || minHealthyCount > MAX_COUNT)) {
            throw new IllegalArgumentException("minHealthyCount: " + minHealthyCount + " (expected: 1.." + MAX_COUNT
                    + ")");
        }
        if (leaveMarginPercent < 0 || leaveMarginPercent > MAX_MARGIN_PERCENT) {
            throw new IllegalArgumentException("leaveMarginPercent: " + leaveMarginPercent + " (expected: 0.."
                    + MAX_MARGIN_PERCENT + ")");
        }
        if (leaveMarginCount < 0 || leaveMarginCount > MAX_MARGIN_COUNT) {
            throw new IllegalArgumentException("leaveMarginCount: " + leaveMarginCount + " (expected: 0.."
                    + MAX_MARGIN_COUNT + ")");
        }
    }

    /** A threshold with the default margins. */
    public static PanicThreshold of(Integer minHealthyPercent, Integer minHealthyCount) {
        if (minHealthyPercent == null && minHealthyCount == null) {
            return NONE;
        }
        return new PanicThreshold(minHealthyPercent, minHealthyCount, DEFAULT_MARGIN_PERCENT, DEFAULT_MARGIN_COUNT);
    }

    /** True when neither bound is set. */
    public boolean isNone() {
        return minHealthyPercent == null && minHealthyCount == null;
    }

    /** True when {@code routable} of {@code members} is below a bound: the group enters (or stays in) panic. */
    boolean below(int routable, int members) {
        return (minHealthyPercent != null && 100L * routable < (long) minHealthyPercent * members)
                || (minHealthyCount != null && routable < minHealthyCount);
    }

    /**
     * True when {@code routable} of {@code members} is at or above every bound plus its margin (each capped at the
     * whole group): a group in panic leaves it.
     */
    boolean clearOf(int routable, int members) {
        if (minHealthyPercent != null) {
            long percent = Math.min(100, minHealthyPercent + leaveMarginPercent);
            if (100L * routable < percent * members) {
                return false;
            }
        }
        return minHealthyCount == null || routable >= Math.min((long) members, (long) minHealthyCount + leaveMarginCount);
    }

    @Override
    public String toString() {
        if (isNone()) {
            return "none";
        }
        StringBuilder s = new StringBuilder();
        if (minHealthyPercent != null) {
            s.append(minHealthyPercent).append("% (+").append(leaveMarginPercent).append(" to leave)");
        }
        if (minHealthyCount != null) {
            s.append(s.isEmpty() ? "" : " and ").append(minHealthyCount).append(" members (+").append(leaveMarginCount)
                    .append(" to leave)");
        }
        return s.toString();
    }
}
