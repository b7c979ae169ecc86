package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of one input to a {@link TargetHealthState}: the state before (null for a new target), the state
 * after, and why a result was ignored, if it was. Whether to emit a state event and whether the group must hear of
 * it are read from here, so the processor holds no rules of its own.
 *
 * <p>A state event is emitted when the overall status, the stale flag, the group or the generation changes, or when
 * a region's status or stale flag changes (the per-region breakdown). A region not yet known counts as
 * (DETECTING, not stale), so with a single region the events are exactly BEHAVIOUR.md section 2's: one per change of
 * status or stale flag. Counters alone never emit.
 *
 * @param ignored why a result changed nothing; {@code null} otherwise
 */
public record TargetUpdate(TargetHealthState before, TargetHealthState after, IgnoredBecause ignored) {

    public TargetUpdate {
        requireNonNull(after, "after");
    }

    static TargetUpdate of(TargetHealthState before, TargetHealthState after) {
        return new TargetUpdate(before, after, null);
    }

    /** An INCONCLUSIVE result: counted as ignored, but a known region records it (stored, never emitted alone). */
    static TargetUpdate inconclusive(TargetHealthState before, TargetHealthState after) {
        return new TargetUpdate(before, after, IgnoredBecause.INCONCLUSIVE);
    }

    static TargetUpdate ignored(TargetHealthState state, IgnoredBecause because) {
        return new TargetUpdate(state, state, requireNonNull(because, "because"));
    }

    /** True for a new target. */
    public boolean created() {
        return before == null;
    }

    public boolean statusChanged() {
        return before == null || before.status() != after.status();
    }

    public boolean groupChanged() {
        return before != null && !before.spec().group().equals(after.spec().group());
    }

    /** True when the group-health side must hear of the target: new, another status, or another group. */
    public boolean membershipChanged() {
        return statusChanged() || groupChanged();
    }

    /** True when the stored state differs (anything at all, counters included). */
    public boolean stateChanged() {
        return !after.equals(before);
    }

    /** True when a state event is due (see the class comment). */
    public boolean emits() {
        return statusChanged()
                || before.stale() != after.stale()
                || groupChanged()
                || before.generation() != after.generation()
                || breakdownChanged();
    }

    private boolean breakdownChanged() {
        TreeSet<String> names = new TreeSet<>(before.regions().keySet());
        names.addAll(after.regions().keySet());
        for (String name : names) {
            RegionState was = before.regions().get(name);
            RegionState is = after.regions().get(name);
            if (statusOf(was) != statusOf(is) || staleOf(was) != staleOf(is)) {
                return true;
            }
        }
        return false;
    }

    private static HealthStatus statusOf(RegionState region) {
        return region == null ? HealthStatus.DETECTING : region.machine().status();
    }

    private static boolean staleOf(RegionState region) {
        return region != null && region.stale();
    }
}
