package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceBook;
import io.healthmesh.core.maintenance.MaintenanceRules;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The maintenance windows one Kafka Streams instance knows, shared between the global store's processor (which
 * writes them as it reads the accepted windows, when it restores as when it follows) and every target task (which
 * reads them when it computes a state event). Immutable snapshots swapped atomically: a reader never sees half a
 * change, and the version tells a task that its book is out of date without comparing windows.
 */
final class MaintenanceWindows {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceWindows.class);

    /** The book and how many changes made it. */
    record Snapshot(MaintenanceBook book, long version) {
    }

    private final AtomicReference<Snapshot> current = new AtomicReference<>(new Snapshot(MaintenanceBook.EMPTY, 0));

    Snapshot snapshot() {
        return current.get();
    }

    /**
     * Adds or replaces a window. At {@link MaintenanceRules#MAX_WINDOWS} the windows ended before {@code nowMs} are
     * forgotten first; if that frees nothing, a new id is refused (logged): the book is matched on every state event.
     */
    boolean put(MaintenanceWindow w, long nowMs) {
        if (current.get().book().size() >= MaintenanceRules.MAX_WINDOWS) {
            forgetEndedBefore(nowMs);
        }
        while (true) {
            Snapshot s = current.get();
            if (s.book().window(w.id()).isEmpty() && s.book().size() >= MaintenanceRules.MAX_WINDOWS) {
                LOG.warn("maintenance window {} ignored: {} windows are held already (the most there may be)",
                        RecordSafeHandlers.cut(w.id()), MaintenanceRules.MAX_WINDOWS);
                return false;
            }
            if (current.compareAndSet(s, new Snapshot(s.book().with(w), s.version() + 1))) {
                return true;
            }
        }
    }

    void remove(String id) {
        while (true) {
            Snapshot s = current.get();
            MaintenanceBook without = s.book().without(id);
            if (without == s.book() || current.compareAndSet(s, new Snapshot(without, s.version() + 1))) {
                return;
            }
        }
    }

    /** Forgets the windows that ended before {@code nowMs} (they can never be in force again). */
    void forgetEndedBefore(long nowMs) {
        for (MaintenanceWindow w : current.get().book().windows().values()) {
            if (w.endMs() < nowMs) {
                remove(w.id());
            }
        }
    }
}
