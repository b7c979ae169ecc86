package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import static java.util.Objects.requireNonNull;

/**
 * What one step of a {@link HealthStateMachine} did, as a value (Envoy's {@code Unchanged / Changed}): callers
 * decide what to emit by looking at it, never by comparing states themselves. Both kinds carry the new machine,
 * because counters move even when the status does not.
 */
public sealed interface Transition permits Transition.Unchanged, Transition.Changed {

    /** The machine after the step. */
    HealthStateMachine state();

    /** True when the status changed. */
    default boolean changed() {
        return this instanceof Changed;
    }

    /** The status did not change; counters may have. */
    record Unchanged(HealthStateMachine state) implements Transition {
        public Unchanged {
            requireNonNull(state, "state");
        }
    }

    /** The status changed from {@code from} to {@code state().status()}. */
    record Changed(HealthStateMachine state, HealthStatus from) implements Transition {
        public Changed {
            requireNonNull(state, "state");
            requireNonNull(from, "from");
            if (from == state.status()) {
                throw new IllegalArgumentException("from: " + from + " (expected: a status other than the new one)");
            }
        }

        /** The new status. */
        public HealthStatus to() {
            return state.status();
        }
    }
}
