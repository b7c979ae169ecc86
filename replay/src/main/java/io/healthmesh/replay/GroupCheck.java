package io.healthmesh.replay;

import io.healthmesh.core.health.FailOpenReason;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.GroupUpdate;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The self-check of group events: the membership changes of the run as configured and the recorded group policies,
 * applied per group through {@link GroupUpdate} (the aggregator's group task's own rule: {@link GroupState}'s
 * counters, panic threshold and hysteresis), must go through the fail-open verdicts the aggregator's group events went
 * through, group by group and in the same order, each at the same record timestamp (the timestamp of the record that
 * caused it, which the group event carries). As for targets, repeats are collapsed: an event that only changes the
 * routable set is not compared one by one, a change of the verdict (routed, fail-open and why, deleted) is.
 *
 * <p>Only groups whose every member is replayed are compared (a selection that leaves members out cannot know the
 * group's counters). Each group starts at the range's start from its members' statuses then, the policy in force then
 * and the fail-open decision of the aggregator's last group event before it (the hysteresis' memory). The
 * aggregator's group task reads what its target tasks committed; when it had not read all of it yet
 * ({@link Input#complete} false), the aggregator's verdicts may stop short of replay's, and a missing tail is no
 * mismatch.
 *
 * <p>The order of one group's member changes is the one thing replay cannot know exactly. Members on different
 * partitions are handled by different target tasks; the group task reads their changes in the order those tasks wrote
 * them, and replay orders them by record timestamp. Two members that change a few milliseconds apart can reach the
 * group task in either order; the verdicts are the same, but the event carries the timestamp of whichever change
 * came second. So a change whose verdict matches is also taken when its timestamp is that of another member change
 * (or policy) of the group at most {@link #ORDER_TOLERANCE_MS} from replay's. A different order that makes the group
 * pass through another verdict (one member down, another up, close together) is still reported.
 */
public final class GroupCheck {

    /** How far apart two member changes of one group may reach the group task out of timestamp order. */
    static final long ORDER_TOLERANCE_MS = 10_000;

    /**
     * One record of the group state topic in domain terms.
     *
     * @param timestampMs the record timestamp: that of the record whose change produced the event
     * @param failOpenReason why the group failed open ({@code null}: it did not); ignored for a tombstone
     * @param tombstone the group had no member left
     */
    public record GroupEvent(String groupId, long timestampMs, long offset, boolean tombstone,
                             FailOpenReason failOpenReason) {
        public GroupEvent {
            requireNonNull(groupId, "groupId");
        }

        String verdict() {
            return tombstone ? "(deleted)" : verdictOf(failOpenReason);
        }
    }

    /** One valid record of the groups topic: {@code groupId}'s panic threshold from {@code timestampMs} on. */
    public record PolicyRecord(long timestampMs, String groupId, PanicThreshold threshold) {
        public PolicyRecord {
            requireNonNull(groupId, "groupId");
            requireNonNull(threshold, "threshold");
        }
    }

    /**
     * What the recorded topics say about groups.
     *
     * @param groups the groups to compare (every member replayed)
     * @param events their group events up to the range's end, per group in offset order
     * @param policies the groups topic's valid records up to the range's end (those the aggregator had processed)
     * @param complete false when the aggregator's group task had not read every membership change its target tasks
     *                 committed
     */
    public record Input(Set<String> groups, Map<String, List<GroupEvent>> events, List<PolicyRecord> policies,
                        boolean complete) {
        public Input {
            groups = Set.copyOf(groups);
            events = Map.copyOf(events);
            policies = List.copyOf(policies);
        }
    }

    /**
     * @param groups groups compared
     * @param changes fail-open verdict changes the aggregator emitted in the range (each one compared)
     * @param mismatches one line per group that differs (its first difference)
     */
    public record Result(int groups, int changes, List<String> mismatches) {
        public Result {
            mismatches = List.copyOf(mismatches);
        }
    }

    /** A verdict change replay derived: when and what. */
    private record Verdict(long timestampMs, String verdict) {
    }

    private GroupCheck() {
    }

    static Result compare(Input input, ReplayWindow window, Map<String, StartState> atFrom,
                          List<ReplayRun.Membership> memberships) {
        Map<String, Map<String, HealthStatus>> members = new HashMap<>();
        atFrom.forEach((id, start) -> {
            if (start.status() != null && input.groups().contains(start.group())) {
                members.computeIfAbsent(start.group(), g -> new HashMap<>()).put(id, start.status());
            }
        });
        Map<String, List<ReplayRun.Membership>> changesOf = new HashMap<>();
        for (ReplayRun.Membership m : memberships) {
            if (input.groups().contains(m.group()) && window.contains(m.timestampMs())) {
                changesOf.computeIfAbsent(m.group(), g -> new ArrayList<>()).add(m);
            }
        }
        List<PolicyRecord> policies = new ArrayList<>(input.policies());
        policies.sort(Comparator.comparingLong(PolicyRecord::timestampMs)); // stable: offset order on a tie
        int changes = 0;
        List<String> mismatches = new ArrayList<>();
        for (String group : new TreeSet<>(input.groups())) {
            List<GroupEvent> events = input.events().getOrDefault(group, List.of());
            GroupEvent prior = null;
            List<GroupEvent> inRange = new ArrayList<>();
            for (GroupEvent e : events) {
                if (e.timestampMs() < window.fromMs()) {
                    prior = e;
                } else if (window.contains(e.timestampMs())) {
                    inRange.add(e);
                }
            }
            String start = prior == null ? null : prior.verdict();
            List<GroupEvent> theirs = collapse(start, inRange, GroupEvent::verdict);
            List<Verdict> ours = collapse(start, replay(group, prior, window,
                    members.getOrDefault(group, new HashMap<>()), changesOf.getOrDefault(group, List.of()), policies),
                    Verdict::verdict);
            changes += theirs.size();
            Set<Long> causes = new HashSet<>();
            changesOf.getOrDefault(group, List.of()).forEach(m -> causes.add(m.timestampMs()));
            policies.stream().filter(pr -> pr.groupId().equals(group)).forEach(pr -> causes.add(pr.timestampMs()));
            String mismatch = firstDifference(group, theirs, ours, causes, input.complete());
            if (mismatch != null) {
                mismatches.add(mismatch);
            }
        }
        return new Result(input.groups().size(), changes, mismatches);
    }

    /** The group's events as the aggregator's group task would produce them from the range's start on. */
    private static List<Verdict> replay(String group, GroupEvent prior, ReplayWindow window,
                                        Map<String, HealthStatus> members, List<ReplayRun.Membership> changes,
                                        List<PolicyRecord> policies) {
        PanicThreshold threshold = PanicThreshold.NONE;
        List<PolicyRecord> later = new ArrayList<>();
        for (PolicyRecord p : policies) {
            if (!p.groupId().equals(group)) {
                continue;
            }
            if (p.timestampMs() < window.fromMs()) {
                threshold = p.threshold();
            } else if (window.contains(p.timestampMs())) {
                later.add(p);
            }
        }
        GroupCounts counts = GroupCounts.EMPTY;
        for (HealthStatus s : members.values()) {
            counts = counts.move(null, s);
        }
        GroupState state = start(counts, threshold, prior);
        List<ReplayRun.Membership> ordered = new ArrayList<>(changes);
        ordered.sort(Comparator.comparingLong(ReplayRun.Membership::timestampMs)); // stable: the run's order on a tie
        List<Verdict> out = new ArrayList<>();
        int p = 0;
        for (ReplayRun.Membership m : ordered) {
            while (p < later.size() && later.get(p).timestampMs() <= m.timestampMs()) {
                state = apply(GroupUpdate.threshold(state, later.get(p).threshold()), later.get(p).timestampMs(), out);
                p++;
            }
            HealthStatus before = members.get(m.targetId());
            if (m.status() == null) {
                members.remove(m.targetId());
            } else {
                members.put(m.targetId(), m.status());
            }
            state = apply(GroupUpdate.member(state, before, m.status()), m.timestampMs(), out);
        }
        for (; p < later.size(); p++) {
            state = apply(GroupUpdate.threshold(state, later.get(p).threshold()), later.get(p).timestampMs(), out);
        }
        return out;
    }

    /**
     * The group at the range's start: its counters, its policy, and the fail-open decision its last event before the
     * range carried (every change of that decision produces an event, so it is the one the aggregator held).
     */
    private static GroupState start(GroupCounts counts, PanicThreshold threshold, GroupEvent prior) {
        if (prior != null && !prior.tombstone() && !counts.isEmpty()) {
            try {
                return new GroupState(counts, threshold, prior.failOpenReason());
            } catch (IllegalArgumentException inconsistent) {
                // the counters replay found cannot hold that decision: the rule decides alone (the check will say)
            }
        }
        return GroupState.of(counts, threshold);
    }

    private static GroupState apply(GroupUpdate update, long timestampMs, List<Verdict> out) {
        switch (update.effect()) {
            case EVENT -> out.add(new Verdict(timestampMs, verdictOf(update.after().failOpenReason())));
            case TOMBSTONE -> out.add(new Verdict(timestampMs, "(deleted)"));
            case NONE -> { }
        }
        return update.after();
    }

    private static String firstDifference(String group, List<GroupEvent> theirs, List<Verdict> ours, Set<Long> causes,
                                          boolean complete) {
        int n = Math.min(theirs.size(), ours.size());
        for (int i = 0; i < n; i++) {
            GroupEvent t = theirs.get(i);
            Verdict o = ours.get(i);
            if (!t.verdict().equals(o.verdict()) || !sameCause(t.timestampMs(), o.timestampMs(), causes)) {
                return "group " + group + ": fail-open change #" + (i + 1) + ": aggregator " + t.verdict() + " at "
                        + Instant.ofEpochMilli(t.timestampMs()) + " (event offset " + t.offset() + "), replay "
                        + o.verdict() + " at " + Instant.ofEpochMilli(o.timestampMs());
            }
        }
        if (theirs.size() > n) {
            GroupEvent next = theirs.get(n);
            return "group " + group + ": the aggregator emitted " + theirs.size() + " fail-open changes, replay "
                    + ours.size() + "; first missing in replay: " + next.verdict() + " at "
                    + Instant.ofEpochMilli(next.timestampMs()) + " (offset " + next.offset() + ")";
        }
        if (ours.size() > n && complete) {
            Verdict next = ours.get(n);
            return "group " + group + ": replay produced " + ours.size() + " fail-open changes, the aggregator "
                    + theirs.size() + "; first not emitted by the aggregator: " + next.verdict() + " at "
                    + Instant.ofEpochMilli(next.timestampMs());
        }
        return null;
    }

    /**
     * Whether the aggregator's event and replay's change come from the same moment: the same timestamp, or that of
     * another change of the group close enough to have reached the group task first.
     */
    static boolean sameCause(long theirsMs, long oursMs, Set<Long> causes) {
        return theirsMs == oursMs || (Math.abs(theirsMs - oursMs) <= ORDER_TOLERANCE_MS && causes.contains(theirsMs));
    }

    /** The entries whose verdict differs from the one before them (the first from {@code start}), in order. */
    private static <T> List<T> collapse(String start, List<T> entries, Function<T, String> verdict) {
        List<T> out = new ArrayList<>();
        String last = start;
        for (T e : entries) {
            if (!Objects.equals(verdict.apply(e), last)) {
                out.add(e);
                last = verdict.apply(e);
            }
        }
        return out;
    }

    private static String verdictOf(FailOpenReason reason) {
        return reason == null ? "ROUTED" : "FAIL_OPEN (" + reason.name() + ")";
    }

    /** Groups whose every member, in any definition recorded, is among {@code selected}. */
    public static Set<String> wholeGroups(Map<String, List<String>> groupsOfTarget, Set<String> selected) {
        Map<String, Boolean> whole = new TreeMap<>();
        groupsOfTarget.forEach((id, groups) -> groups.forEach(g -> whole.merge(g, selected.contains(id),
                Boolean::logicalAnd)));
        Set<String> out = new TreeSet<>();
        whole.forEach((g, all) -> {
            if (all) {
                out.add(g);
            }
        });
        return out;
    }
}
