package io.healthmesh.testkit.farm;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Every up/down switch of the farm, in order, bounded to {@value #CAPACITY} entries (later ones are counted, not kept). */
public final class TransitionLog {

    static final int CAPACITY = 1_000_000;

    private final Clock clock;
    private final List<Transition> entries = new ArrayList<>();
    private long dropped;

    TransitionLog(Clock clock) {
        this.clock = clock;
    }

    synchronized Transition record(FarmTarget target, boolean up) {
        Instant now = clock.instant();
        Transition t = new Transition(target, up, now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000,
                System.nanoTime());
        if (entries.size() < CAPACITY) {
            entries.add(t);
        } else {
            dropped++;
        }
        return t;
    }

    /** A copy of the switches recorded so far. */
    public synchronized List<Transition> snapshot() {
        return List.copyOf(entries);
    }

    /** Switches not kept because the log was full. */
    public synchronized long dropped() {
        return dropped;
    }
}
