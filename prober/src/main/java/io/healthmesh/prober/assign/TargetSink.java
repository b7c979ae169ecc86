package io.healthmesh.prober.assign;

import io.healthmesh.core.target.TargetSpec;

import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/** Where assignment hands its decisions: the scheduler in a worker, a recorder in tests. Must be thread-safe. */
public interface TargetSink {

    /** Probe this target (new, or changed). */
    void schedule(TargetSpec spec);

    /** Stop probing this target; returns once no new probe of it can start. */
    void remove(String targetId);

    /** A sink from two method references, e.g. {@code TargetSink.of(scheduler::schedule, scheduler::remove)}. */
    static TargetSink of(Consumer<TargetSpec> schedule, Consumer<String> remove) {
        requireNonNull(schedule, "schedule");
        requireNonNull(remove, "remove");
        return new TargetSink() {
            @Override
            public void schedule(TargetSpec spec) {
                schedule.accept(spec);
            }

            @Override
            public void remove(String targetId) {
                remove.accept(targetId);
            }
        };
    }
}
