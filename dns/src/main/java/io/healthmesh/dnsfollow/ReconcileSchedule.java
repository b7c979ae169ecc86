package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.mapping.NameMapping;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * When the reconcile thread looks at which names: all of them at the first pass and every interval after; between
 * those, the names whose group changed at once, failed names after a backoff (1 s doubling to 30 s, at most the
 * interval; back to 1 s once none fails), and names whose changes wait for the change budget when it allows more.
 * Time is the caller's {@code System.nanoTime()} reading, so tests drive it by hand. Not thread-safe.
 */
final class ReconcileSchedule {

    static final long FIRST_RETRY_NANOS = Duration.ofSeconds(1).toNanos();
    static final long MAX_RETRY_NANOS = Duration.ofSeconds(30).toNanos();
    static final long MIN_BUDGET_WAIT_NANOS = Duration.ofMillis(10).toNanos();

    private final long intervalNanos;
    private final Set<String> retry = new HashSet<>();
    private final Set<String> waiting = new HashSet<>();
    private long nextFull;
    private long retryAt;
    private long retryDelay = FIRST_RETRY_NANOS;
    private long budgetAt;
    private boolean retryArmed;
    private boolean budgetArmed;

    ReconcileSchedule(Duration interval, long now) {
        this.intervalNanos = interval.toNanos();
        this.nextFull = now;
    }

    /** The earliest time something is due (may be in the past). */
    long wakeAt() {
        long at = nextFull;
        if (retryArmed && retryAt - at < 0) {
            at = retryAt;
        }
        if (budgetArmed && budgetAt - at < 0) {
            at = budgetAt;
        }
        return at;
    }

    /** The names to look at now, in mapping order; starts the next interval when a full pass is due. */
    List<NameMapping> due(List<NameMapping> names, Set<String> changedGroups, long now) {
        boolean full = now - nextFull >= 0;
        if (full) {
            nextFull = now + intervalNanos;
        }
        boolean retrying = retryArmed && now - retryAt >= 0;
        boolean budgeted = budgetArmed && now - budgetAt >= 0;
        return names.stream().filter(n -> full || changedGroups.contains(n.group())
                || retrying && retry.contains(n.name()) || budgeted && waiting.contains(n.name())).toList();
    }

    /** Takes in what a pass did. */
    void done(ZoneReconciler.Outcome outcome, long now, long budgetWaitNanos) {
        retry.removeAll(outcome.inSync());
        retry.removeAll(outcome.waiting());
        retry.addAll(outcome.failed());
        waiting.removeAll(outcome.inSync());
        waiting.removeAll(outcome.failed());
        waiting.addAll(outcome.waiting());
        if (!outcome.failed().isEmpty()) {
            retryArmed = true;
            retryAt = now + retryDelay;
            retryDelay = Math.min(Math.min(retryDelay * 2, MAX_RETRY_NANOS), Math.max(FIRST_RETRY_NANOS, intervalNanos));
        } else if (retry.isEmpty()) {
            retryArmed = false;
            retryDelay = FIRST_RETRY_NANOS;
        }
        budgetArmed = !waiting.isEmpty();
        budgetAt = now + Math.max(MIN_BUDGET_WAIT_NANOS, budgetWaitNanos);
    }
}
