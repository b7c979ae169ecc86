package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The recent evidence of one target, oldest first: the results applied and the status changes they caused, at most
 * a configured number of entries (the oldest go first). It answers "why did it flip" with the results that did it.
 * Immutable.
 */
public record TargetHistory(List<Entry> entries) {

    /** No entries yet. */
    public static final TargetHistory EMPTY = new TargetHistory(List.of());

    public TargetHistory {
        entries = List.copyOf(requireNonNull(entries, "entries"));
    }

    /** One entry: a result applied ({@link Result}) or a status change ({@link StatusChange}). */
    public sealed interface Entry permits Result, StatusChange {
        /** When it happened, epoch ms: a result's start, a change's {@code sinceMs}. */
        long atMs();
    }

    /**
     * A result applied to the target.
     *
     * @param detail short detail, or {@code null}
     */
    public record Result(long atMs, String region, Outcome outcome, long latencyMicros, String detail)
            implements Entry {
        public Result {
            requireNonNull(region, "region");
            requireNonNull(outcome, "outcome");
        }
    }

    /**
     * A change of the target's overall status.
     *
     * @param from the status before, {@code null} for a new target
     */
    public record StatusChange(long atMs, HealthStatus from, HealthStatus to) implements Entry {
        public StatusChange {
            requireNonNull(to, "to");
        }
    }

    /** This history with {@code entry} added, keeping the newest {@code max} entries (none when {@code max <= 0}). */
    public TargetHistory with(Entry entry, int max) {
        requireNonNull(entry, "entry");
        if (max <= 0) {
            return EMPTY;
        }
        List<Entry> next = new ArrayList<>(Math.min(entries.size() + 1, max));
        int skip = Math.max(0, entries.size() + 1 - max);
        for (int i = skip; i < entries.size(); i++) {
            next.add(entries.get(i));
        }
        next.add(entry);
        return new TargetHistory(next);
    }

    /** The entries at or after {@code sinceMs}, oldest first. */
    public List<Entry> since(long sinceMs) {
        return entries.stream().filter(e -> e.atMs() >= sinceMs).toList();
    }

    /** What an update adds to the history: the result it applied and the status change it made, if any. */
    public TargetHistory record(TargetUpdate update, ProbeObservation applied, int max) {
        TargetHistory next = this;
        for (Entry entry : entriesOf(update, applied)) {
            next = next.with(entry, max);
        }
        return next;
    }

    /**
     * The entries an update adds, oldest first: the result it applied (none when it was ignored) and the status
     * change it made, if any.
     */
    public static List<Entry> entriesOf(TargetUpdate update, ProbeObservation applied) {
        List<Entry> added = new ArrayList<>(2);
        if (applied != null && update.ignored() == null) {
            added.add(new Result(applied.startedAtMs(), applied.region(), applied.outcome(), applied.latencyMicros(),
                    applied.detail()));
        }
        if (update.statusChanged()) {
            added.add(new StatusChange(update.after().sinceMs(),
                    update.before() == null ? null : update.before().status(), update.after().status()));
        }
        return added;
    }
}
