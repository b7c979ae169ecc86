package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetUpdate;
import io.healthmesh.core.health.HealthStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * One setting's run over the recorded inputs: each target's {@link TargetHealthState} driven exactly as the
 * aggregator's processor drives it (definitions through {@code create}/{@code redefine}, results through
 * {@code apply}, staleness through {@code checkStaleness} on a virtual punctuation every {@code tickMs}), with the
 * record timestamps as the clock: the aggregator's staleness clock ({@code ReadClock}) for one that reads each
 * record as it is written. What happens from {@code fromMs} on is recorded: status changes, and the status
 * of every state event the aggregator would have emitted.
 */
final class ReplayRun {

    /**
     * A state event this run emits: its record timestamp, status ({@code null} for a tombstone) and when that status
     * was entered.
     */
    record Emitted(long timestampMs, HealthStatus status, long sinceMs) {
    }

    /**
     * A change the aggregator's group task hears of (the target task's membership change): {@code targetId} joins
     * or moves within {@code group} to {@code status}, or leaves it ({@code status == null}).
     *
     * @param timestampMs the record timestamp of what caused it (the group event it may produce carries it too)
     */
    record Membership(long timestampMs, String group, String targetId, HealthStatus status) {
    }

    private final Alternatives alternatives;
    private final StalenessRule configured;
    private final long tickMs;
    private final long fromMs;
    private final long notBeforeMs;

    private final Map<String, TargetHealthState> states = new HashMap<>();
    /**
     * The aggregator's own staleness decisions, per target in offset order, when this run follows them instead of
     * deciding staleness on record time ({@link #followStaleness}); {@code null} when it decides.
     */
    private Map<String, java.util.ArrayDeque<EmittedEvent>> recorded;
    private final Map<String, Long> nextTick = new HashMap<>();
    private final Map<String, StartState> atFrom = new LinkedHashMap<>();
    private final Map<String, List<StatusChange>> changes = new TreeMap<>();
    private final Map<String, List<Emitted>> emitted = new TreeMap<>();
    /** The membership changes from {@code fromMs} on, in the order this run made them. */
    private final List<Membership> memberships = new ArrayList<>();

    ReplayRun(Alternatives alternatives, StalenessRule configured, long tickMs, long fromMs, long notBeforeMs) {
        this.alternatives = requireNonNull(alternatives, "alternatives");
        this.configured = requireNonNull(configured, "configured");
        if (tickMs < 1) {
            throw new IllegalArgumentException("tickMs: " + tickMs + " (expected: 1 or more)");
        }
        this.tickMs = tickMs;
        this.fromMs = fromMs;
        this.notBeforeMs = notBeforeMs;
    }

    /** Starts a target from a state the aggregator emitted, under the definition in force then. */
    void seed(EmittedEvent event, TargetEssentials inForce) {
        String id = event.targetId();
        TargetHealthState seeded = fromEvent(event, inForce);
        TargetEssentials mine = alternatives.applyTo(inForce);
        if (!mine.equals(inForce)) {
            seeded = seeded.redefine(mine, event.timestampMs(), event.timestampMs()).after();
        }
        states.put(id, seeded);
        nextTick.put(id, firstTickAfter(event.timestampMs()));
    }

    /**
     * Sets a target to the state the aggregator emitted (the run "as configured", before the range): from here on
     * its counters are exact, whatever was applied before. Ignored when the event does not fit the definition in
     * force (another generation) or is a tombstone.
     */
    void reseed(EmittedEvent event) {
        TargetHealthState current = states.get(event.targetId());
        if (current == null || event.state() == null || event.state().generation() != current.generation()) {
            return;
        }
        states.put(event.targetId(), fromEvent(event, current.spec()));
    }

    /**
     * Takes staleness from the aggregator's events in the range instead of deciding it: the aggregator judges it on
     * its task's staleness clock ({@code ReadClock}: the time of the records it has read, and the wall clock for the
     * time it had nothing to read, in bounded steps), whose punctuations the records do not carry; a stopped and
     * resumed aggregator decides it at other instants than record time would. Each rule is the same
     * ({@code TargetHealthState.checkStaleness}); only the instants differ. Each event is applied where the aggregator applied it:
     * after the last result it names, before the next one. For the run as configured, which the self-check compares.
     */
    void followStaleness(Map<String, List<EmittedEvent>> inRange) {
        recorded = new HashMap<>();
        inRange.forEach((id, events) -> recorded.put(id, new java.util.ArrayDeque<>(events)));
    }

    /** Applies a record of the targets topic. */
    void define(DefinitionRecord d) {
        String id = d.targetId();
        long ts = d.timestampMs();
        advance(id, ts);
        snapshotIfDue(id, ts);
        TargetHealthState current = states.get(id);
        if (d.isDeletion()) {
            if (current != null) {
                states.remove(id);
                nextTick.remove(id);
                if (ts >= fromMs) {
                    emitted(id).add(new Emitted(ts, null, ts));
                    changes(id).add(new StatusChange(id, current.spec().group(), current.status(), null, ts));
                    memberships.add(new Membership(ts, current.spec().group(), id, null));
                }
            }
            return;
        }
        TargetEssentials mine = alternatives.applyTo(d.essentials());
        TargetUpdate update = current == null
                ? TargetHealthState.create(mine, ts, ts)
                : current.redefine(mine, ts, ts);
        if (current == null) {
            nextTick.put(id, firstTickAfter(ts));
        }
        commit(id, update, ts);
    }

    /** Applies one probe result read at record time {@code ts}; a result for an unknown target is ignored. */
    void apply(String id, long ts, ProbeObservation result) {
        advance(id, ts);
        snapshotIfDue(id, ts);
        TargetHealthState current = states.get(id);
        if (current == null) {
            return;
        }
        TargetUpdate update = current.apply(result, ts);
        if (update.ignored() == null) {
            commit(id, update, ts);
        }
    }

    /** Runs the staleness punctuation of one target up to {@code ts}. */
    void advance(String id, long ts) {
        if (recorded != null) {
            applyRecordedStaleness(id);
            return;
        }
        Long next = nextTick.get(id);
        if (next == null) {
            return;
        }
        long tick = next;
        while (tick <= ts) {
            snapshotIfDue(id, tick);
            TargetHealthState current = states.get(id);
            TargetUpdate update = current.checkStaleness(tick, notBeforeMs,
                    alternatives.staleness(current.spec(), configured));
            if (update.stateChanged()) {
                commit(id, update, tick);
            }
            tick += tickMs;
        }
        nextTick.put(id, tick);
    }

    /** Ends the run at {@code toMs}: every target's punctuation up to it, and its start status if never recorded. */
    void finish(long toMs) {
        for (String id : new ArrayList<>(nextTick.keySet())) {
            advance(id, toMs);
        }
        for (String id : new ArrayList<>(states.keySet())) {
            snapshotIfDue(id, Math.max(toMs, fromMs));
        }
    }

    Map<String, StartState> atFrom() {
        return atFrom;
    }

    Map<String, List<StatusChange>> changes() {
        return changes;
    }

    Map<String, List<Emitted>> emitted() {
        return emitted;
    }

    /** The changes of group membership from the start of the range on, as the target task forwards them. */
    List<Membership> memberships() {
        return memberships;
    }

    /** A target's state now (for tests). */
    TargetHealthState state(String id) {
        return states.get(id);
    }

    private void commit(String id, TargetUpdate update, long ts) {
        TargetHealthState after = update.after();
        states.put(id, after);
        if (ts < fromMs) {
            return;
        }
        if (update.emits()) {
            emitted(id).add(new Emitted(ts, after.status(), after.sinceMs()));
        }
        if (update.statusChanged()) {
            changes(id).add(new StatusChange(id, after.spec().group(),
                    update.before() == null ? null : update.before().status(), after.status(), after.sinceMs()));
        }
        if (update.groupChanged()) {
            memberships.add(new Membership(ts, update.before().spec().group(), id, null));
        }
        if (update.membershipChanged()) {
            memberships.add(new Membership(ts, after.spec().group(), id, after.status()));
        }
    }

    /**
     * Applies the aggregator's events that it emitted after the last result this run applied to {@code id} (those naming
     * that result as their last one), taking from each the staleness it decided and what that did to the status.
     */
    private void applyRecordedStaleness(String id) {
        java.util.ArrayDeque<EmittedEvent> events = recorded.get(id);
        while (events != null && !events.isEmpty()) {
            TargetHealthState current = states.get(id);
            EmittedEvent next = events.peekFirst();
            if (current == null || next.state() == null || !sameResult(next.state().lastResult(),
                    current.lastResult())) {
                if (current != null && next.state() != null && !appliedAlready(current, next.state())) {
                    return; // emitted after a result this run has not applied yet
                }
                events.removeFirst(); // a deletion, or one emitted before the last result applied here
                continue;
            }
            events.removeFirst();
            EmittedEvent.State theirs = next.state();
            if (theirs.generation() != current.generation() || sameStaleness(current, theirs)) {
                continue;
            }
            TargetHealthState after = withStaleness(current, theirs);
            long ts = next.timestampMs();
            snapshotIfDue(id, ts); // the state at the range's start is the one before this change
            states.put(id, after);
            if (ts >= fromMs) {
                emitted(id).add(new Emitted(ts, after.status(), after.sinceMs()));
                if (after.status() != current.status()) {
                    changes(id).add(new StatusChange(id, after.spec().group(), current.status(), after.status(),
                            after.sinceMs()));
                    memberships.add(new Membership(ts, after.spec().group(), id, after.status()));
                }
            }
        }
    }

    /** The same result: one region's results are told apart by their start. */
    private static boolean sameResult(LastResult a, LastResult b) {
        return a == null ? b == null : b != null && a.region().equals(b.region()) && a.startedAtMs() == b.startedAtMs();
    }

    /** True when the event names a result this run applied before its current last one (same region, earlier). */
    private static boolean appliedAlready(TargetHealthState current, EmittedEvent.State theirs) {
        if (theirs.lastResult() == null) {
            return true;
        }
        RegionState mine = current.regions().get(theirs.lastResult().region());
        return mine != null && theirs.lastResult().startedAtMs() <= mine.lastResultAtMs();
    }

    private static boolean sameStaleness(TargetHealthState current, EmittedEvent.State theirs) {
        if (current.stale() != theirs.stale() || current.regions().size() != theirs.regions().size()) {
            return false;
        }
        for (RegionState r : theirs.regions()) {
            RegionState mine = current.regions().get(r.region());
            if (mine == null || mine.stale() != r.stale()) {
                return false;
            }
        }
        return true;
    }

    /** {@code current} with the aggregator's stale flags (and regions it forgot) and the status they made. */
    private static TargetHealthState withStaleness(TargetHealthState current, EmittedEvent.State theirs) {
        TreeMap<String, RegionState> regions = new TreeMap<>();
        for (RegionState r : theirs.regions()) {
            RegionState mine = current.regions().get(r.region());
            if (mine != null) {
                regions.put(r.region(), mine.withStale(r.stale()));
            }
        }
        return new TargetHealthState(current.spec(), theirs.status(), theirs.previousStatus(), theirs.sinceMs(),
                theirs.stale(), current.watchSinceMs(), current.lastResult(), regions);
    }

    private void snapshotIfDue(String id, long ts) {
        if (ts < fromMs || atFrom.containsKey(id)) {
            return;
        }
        TargetHealthState current = states.get(id);
        atFrom.put(id, current == null ? new StartState(null, null) : new StartState(current.spec().group(), current.status()));
    }

    private long firstTickAfter(long ts) {
        long start = Math.max(ts, notBeforeMs);
        return Math.floorDiv(start, tickMs) * tickMs + tickMs;
    }

    private List<Emitted> emitted(String id) {
        return emitted.computeIfAbsent(id, k -> new ArrayList<>());
    }

    private List<StatusChange> changes(String id) {
        return changes.computeIfAbsent(id, k -> new ArrayList<>());
    }

    private static TargetHealthState fromEvent(EmittedEvent event, TargetEssentials inForce) {
        EmittedEvent.State s = event.state();
        if (s == null || s.generation() != inForce.generation()) {
            return TargetHealthState.create(inForce, event.timestampMs(), event.timestampMs()).after();
        }
        TreeMap<String, RegionState> regions = new TreeMap<>();
        for (RegionState r : s.regions()) {
            regions.put(r.region(), r);
        }
        return new TargetHealthState(inForce, s.status(), s.previousStatus(), s.sinceMs(), s.stale(),
                event.timestampMs(), s.lastResult(), regions);
    }
}
