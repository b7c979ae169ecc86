package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Drives two {@link ReplayRun}s, "as configured" and "with the alternatives", over the same inputs, in the order the
 * aggregator would have read them: per target, definitions and results merged by record timestamp (they are
 * co-partitioned, so one task sees both; results of a target arrive in offset order).
 *
 * <p>Where the runs start, per target: from the last state event the aggregator emitted before the read window
 * (with every region's counters), under the definition in force at that event; later definitions are applied from
 * their offset on. While warming up (before {@code fromMs}), the "as configured" run is also set to every state the
 * aggregator emitted, so that at {@code fromMs} it holds the aggregator's exact state, counters included, and the
 * events it then emits can be compared one for one with the aggregator's ({@link SelfCheck}). The alternative run is
 * seeded once and then runs free under its own settings.
 *
 * <p>Feed it with {@link #result} in the order of each target's records, then call {@link #finish}.
 */
public final class ReplayEngine {

    private final ReplayWindow window;
    private final Map<String, TargetFeed> feeds = new TreeMap<>();
    private final ReplayRun configured;
    private final ReplayRun alternative;
    private final Alternatives alternatives;
    private final Map<String, OutageTracker> outages = new TreeMap<>();
    private final Map<String, List<EmittedEvent>> emittedInRange = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, Long> resultsWithoutDefinition = new TreeMap<>();
    private final long minOutageMs;
    private long results;
    private MaintenanceCheck.Result maintenance;
    private GroupCheck.Input groups;

    /**
     * @param definitions every valid record of the targets topic up to {@code window.toMs}, per target in offset order
     * @param emitted the aggregator's state events up to {@code window.toMs}, per target in offset order
     * @param tickMs the aggregator's staleness punctuation interval
     * @param minOutageMs how long failures must last in a row to count as a real outage
     */
    public ReplayEngine(ReplayWindow window, Map<String, List<DefinitionRecord>> definitions,
                        Map<String, List<EmittedEvent>> emitted, StalenessRule staleness, Alternatives alternatives,
                        long tickMs, long minOutageMs) {
        this.window = requireNonNull(window, "window");
        this.alternatives = requireNonNull(alternatives, "alternatives");
        this.minOutageMs = minOutageMs;
        long notBefore = window.fromBeginning() ? 0 : window.readFromMs();
        this.configured = new ReplayRun(Alternatives.NONE, staleness, tickMs, window.fromMs(), notBefore);
        this.alternative = new ReplayRun(alternatives, staleness, tickMs, window.fromMs(), notBefore);
        for (Map.Entry<String, List<DefinitionRecord>> e : definitions.entrySet()) {
            String id = e.getKey();
            List<EmittedEvent> events = emitted.getOrDefault(id, List.of());
            feeds.put(id, start(id, e.getValue(), events));
            for (EmittedEvent event : events) {
                if (window.contains(event.timestampMs())) {
                    emittedInRange.computeIfAbsent(id, k -> new ArrayList<>()).add(event);
                }
            }
        }
        if (!emitted.isEmpty()) {
            // the run as configured is what the aggregator did: its staleness, decided on its clock, is taken as it was
            configured.followStaleness(emittedInRange);
        }
    }

    /** The targets the engine knows a definition of. */
    public java.util.Set<String> targets() {
        return feeds.keySet();
    }

    /** One probe result of {@code targetId}, with its record timestamp. */
    public void result(String targetId, long timestampMs, ProbeObservation observation) {
        TargetFeed feed = feeds.get(targetId);
        if (feed == null) {
            resultsWithoutDefinition.merge(targetId, 1L, Long::sum);
            return;
        }
        if (timestampMs > window.toMs()) {
            return;
        }
        results++;
        feed.drainUpTo(timestampMs);
        configured.apply(targetId, timestampMs, observation);
        alternative.apply(targetId, timestampMs, observation);
        if (timestampMs >= window.fromMs()) {
            outages.computeIfAbsent(targetId, k -> new OutageTracker(minOutageMs)).observe(observation);
        }
    }

    /** Adds the maintenance windows' comparison to the self-check {@link #finish} returns. */
    public void checkMaintenance(MaintenanceCheck.Result result) {
        this.maintenance = requireNonNull(result, "result");
    }

    /** Adds the comparison of group events ({@link GroupCheck}) to the self-check {@link #finish} returns. */
    public void checkGroups(GroupCheck.Input input) {
        this.groups = requireNonNull(input, "input");
    }

    /** Ends the replay at the window's end and returns what each run did. */
    public ReplayResult finish() {
        for (TargetFeed feed : feeds.values()) {
            feed.drainUpTo(window.toMs());
        }
        configured.finish(window.toMs());
        alternative.finish(window.toMs());
        Map<String, List<Outage>> found = new TreeMap<>();
        outages.forEach((id, tracker) -> found.put(id, tracker.finish()));
        if (!resultsWithoutDefinition.isEmpty()) {
            notes.add(resultsWithoutDefinition.values().stream().mapToLong(Long::longValue).sum()
                    + " results for targets with no definition (the aggregator rejects them as UNKNOWN_TARGET): "
                    + String.join(", ", resultsWithoutDefinition.keySet()));
        }
        SelfCheck check = SelfCheck.compare(window, configured, emittedInRange, lastBefore());
        if (groups != null) {
            check = check.with(GroupCheck.compare(groups, window, configured.atFrom(), configured.memberships()));
        }
        return new ReplayResult(window, alternatives, results, configured.atFrom(), configured.changes(),
                alternative.atFrom(), alternative.changes(), found,
                maintenance == null ? check : check.with(maintenance), List.copyOf(notes));
    }

    private Map<String, EmittedEvent> lastBefore() {
        Map<String, EmittedEvent> last = new LinkedHashMap<>();
        feeds.forEach((id, feed) -> {
            if (feed.lastEventBeforeFrom != null) {
                last.put(id, feed.lastEventBeforeFrom);
            }
        });
        return last;
    }

    private TargetFeed start(String id, List<DefinitionRecord> definitions, List<EmittedEvent> events) {
        EmittedEvent seed = null;
        EmittedEvent lastBeforeFrom = null;
        for (EmittedEvent e : events) {
            if (e.timestampMs() < window.readFromMs()) {
                seed = e;
            }
            if (e.timestampMs() < window.fromMs()) {
                lastBeforeFrom = e;
            }
        }
        TargetEssentials seedDefinition = null;
        if (seed != null && seed.state() != null) {
            for (DefinitionRecord d : definitions) {
                if (d.timestampMs() <= seed.timestampMs()) {
                    seedDefinition = d.essentials();
                }
            }
        }
        long startMs = Long.MIN_VALUE;
        if (seedDefinition != null && seedDefinition.generation() == seed.state().generation()) {
            configured.seed(seed, seedDefinition);
            alternative.seed(seed, seedDefinition);
            startMs = seed.timestampMs();
        }
        Deque<DefinitionRecord> pendingDefinitions = new ArrayDeque<>();
        for (int i = 0; i < definitions.size(); i++) {
            DefinitionRecord d = definitions.get(i);
            if (d.timestampMs() > startMs && d.timestampMs() <= window.toMs()) {
                pendingDefinitions.add(d);
                if (window.contains(d.timestampMs()) && i > 0) {
                    notes.add("definition of " + id + " changed at " + java.time.Instant.ofEpochMilli(d.timestampMs())
                            + " (offset " + d.offset() + "): " + (d.isDeletion() ? "deleted" : describe(d.essentials()))
                            + "; applied from that offset on");
                }
            }
        }
        Deque<EmittedEvent> pendingReseeds = new ArrayDeque<>();
        for (EmittedEvent e : events) {
            if (e.timestampMs() > startMs && e.timestampMs() < window.fromMs()) {
                pendingReseeds.add(e);
            }
        }
        return new TargetFeed(pendingDefinitions, pendingReseeds, lastBeforeFrom);
    }

    private static String describe(TargetEssentials e) {
        return "group " + e.group() + ", enabled " + e.enabled() + ", thresholds " + e.thresholds().healthy() + "/"
                + e.thresholds().unhealthy() + ", interval " + e.intervalMs() + " ms, quorum " + e.quorum()
                + ", generation " + Long.toHexString(e.generation());
    }

    /** A target's definitions and (for the run as configured) the aggregator's states, not applied yet. */
    private final class TargetFeed {
        private final Deque<DefinitionRecord> definitions;
        private final Deque<EmittedEvent> reseeds;
        private final EmittedEvent lastEventBeforeFrom;

        TargetFeed(Deque<DefinitionRecord> definitions, Deque<EmittedEvent> reseeds, EmittedEvent lastEventBeforeFrom) {
            this.definitions = definitions;
            this.reseeds = reseeds;
            this.lastEventBeforeFrom = lastEventBeforeFrom;
        }

        /** Applies, in timestamp order (a definition first on a tie), everything up to {@code ts}. */
        void drainUpTo(long ts) {
            while (true) {
                DefinitionRecord d = definitions.peekFirst();
                EmittedEvent e = reseeds.peekFirst();
                boolean defDue = d != null && d.timestampMs() <= ts;
                boolean eventDue = e != null && e.timestampMs() <= ts;
                if (defDue && (!eventDue || d.timestampMs() <= e.timestampMs())) {
                    definitions.removeFirst();
                    configured.define(d);
                    alternative.define(d);
                } else if (eventDue) {
                    reseeds.removeFirst();
                    configured.advance(e.targetId(), e.timestampMs());
                    configured.reseed(e);
                } else {
                    return;
                }
            }
        }
    }
}
