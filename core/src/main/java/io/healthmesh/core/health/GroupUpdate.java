package io.healthmesh.core.health;

import static java.util.Objects.requireNonNull;

/**
 * What one change does to a group: its state after, and whether the group's event must be produced. The one place
 * that says when a group event is due; the aggregator's group task applies each membership change and threshold
 * change through it, and replay's self-check does the same with the recorded ones, so both produce the same events
 * from the same changes.
 *
 * <ul>
 *   <li>A member that keeps its status (or a non-member leaving) changes nothing.</li>
 *   <li>The last member leaving produces the group's tombstone.</li>
 *   <li>Otherwise an event is due when the first member arrives or the routing changes
 *       ({@link GroupState#routingChangesTo}: the fail-open flag, its reason or the routable set).</li>
 * </ul>
 *
 * @param before the group's state before the change
 * @param after the group's state after it
 * @param effect what the change produces
 */
public record GroupUpdate(GroupState before, GroupState after, Effect effect) {

    /** What a change produces on the group state topic. */
    public enum Effect {
        /** No event: the routing is what the last event said. */
        NONE,
        /** The group's event (its routing changed). */
        EVENT,
        /** The group's tombstone (its last member left). */
        TOMBSTONE
    }

    public GroupUpdate {
        requireNonNull(before, "before");
        requireNonNull(after, "after");
        requireNonNull(effect, "effect");
    }

    /** One member moved from {@code from} to {@code to} ({@code null}: not a member). */
    public static GroupUpdate member(GroupState state, HealthStatus from, HealthStatus to) {
        requireNonNull(state, "state");
        if (from == to) {
            return new GroupUpdate(state, state, Effect.NONE); // not a member and leaving, or the same status again
        }
        GroupState next = state.move(from, to);
        if (next.counts().isEmpty()) {
            return new GroupUpdate(state, next, Effect.TOMBSTONE);
        }
        boolean routingChanges = state.counts().isEmpty() || state.routingChangesTo(next, from, to);
        return new GroupUpdate(state, next, routingChanges ? Effect.EVENT : Effect.NONE);
    }

    /** The group's policy became {@code threshold}: fail-open is decided again from the counters. */
    public static GroupUpdate threshold(GroupState state, PanicThreshold threshold) {
        requireNonNull(state, "state");
        GroupState next = state.withThreshold(threshold);
        boolean announced = !next.counts().isEmpty() && state.routingChangesTo(next, null, null);
        return new GroupUpdate(state, next, announced ? Effect.EVENT : Effect.NONE);
    }

    /** True when the group's event or tombstone must be produced. */
    public boolean emits() {
        return effect != Effect.NONE;
    }
}
