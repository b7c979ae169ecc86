package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.plan.DesiredRecords;
import io.healthmesh.dnsfollow.plan.LastNonEmpty;
import io.healthmesh.dnsfollow.plan.NameTarget;
import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.plan.RecordDiff;
import io.healthmesh.dnsfollow.update.DnsUpdateException;
import io.healthmesh.dnsfollow.update.ZoneServer;
import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.follow.FollowedState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * One reconcile pass over some names: for each, what the followed state says it should answer (after the "never
 * empty" rule), what its zone's primary holds now (a query), and the difference; then per zone ONE update with the
 * differences of its names, cut to what the {@link ChangeBudget} allows (additions first; the rest waits for a
 * later pass). A name already in sync costs a query and no update, so replaying events changes nothing. A failure
 * is counted by reason and logged once per episode per zone; the other zones go on.
 * <p>
 * Not thread-safe: the worker's reconcile thread owns it.
 */
final class ZoneReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(ZoneReconciler.class);
    private static final int CHANGES_LOGGED = 20;

    /**
     * What a pass did.
     *
     * @param inSync names whose zone holds their target now (or which are left as they are)
     * @param failed names whose query or update failed
     * @param waiting names with changes that wait for the change budget
     * @param pendingChanges how many changes wait for the budget
     */
    record Outcome(Set<String> inSync, Set<String> failed, Set<String> waiting, int pendingChanges) {

        /** Every name failed. */
        static Outcome failed(List<NameMapping> names) {
            Set<String> failed = new HashSet<>();
            names.forEach(n -> failed.add(n.name()));
            return new Outcome(Set.of(), failed, Set.of(), 0);
        }
    }

    private final ZoneServer server;
    private final ChangeBudget budget;
    private final DnsFollowMetrics metrics;
    private final LongSupplier epochMillis;
    private final LastNonEmpty memory = new LastNonEmpty();
    private final Map<String, int[]> skipped = new HashMap<>();
    private final Map<String, Set<String>> hostNamesWarned = new HashMap<>();
    private final Map<NameMapping.ZoneRef, DnsUpdateException.Reason> failing = new HashMap<>();

    ZoneReconciler(ZoneServer server, ChangeBudget budget, DnsFollowMetrics metrics, LongSupplier epochMillis) {
        this.server = requireNonNull(server, "server");
        this.budget = requireNonNull(budget, "budget");
        this.metrics = requireNonNull(metrics, "metrics");
        this.epochMillis = requireNonNull(epochMillis, "epochMillis");
    }

    Outcome pass(FollowedState state, List<NameMapping> names) {
        Map<NameMapping.ZoneRef, List<NameMapping>> byZone = new LinkedHashMap<>();
        names.forEach(n -> byZone.computeIfAbsent(n.zoneRef(), z -> new ArrayList<>()).add(n));
        Set<String> inSync = new HashSet<>();
        Set<String> failed = new HashSet<>();
        Set<String> waiting = new HashSet<>();
        int pending = 0;
        for (Map.Entry<NameMapping.ZoneRef, List<NameMapping>> zone : byZone.entrySet()) {
            pending += zone(state, zone.getKey(), zone.getValue(), inSync, failed, waiting);
        }
        metrics.namesKeptLast(memory.keeping());
        metrics.skipped(skipped.values().stream().mapToInt(s -> s[0]).sum(),
                skipped.values().stream().mapToInt(s -> s[1]).sum());
        metrics.pending(pending);
        if (failed.isEmpty()) {
            metrics.passSucceeded(epochMillis.getAsLong());
        }
        return new Outcome(inSync, failed, waiting, pending);
    }

    /** Reconciles the names of one zone; returns how many changes wait for the budget. */
    private int zone(FollowedState state, NameMapping.ZoneRef zone, List<NameMapping> names, Set<String> inSync,
                     Set<String> failed, Set<String> waiting) {
        List<RecordChange> adds = new ArrayList<>();
        List<RecordChange> deletes = new ArrayList<>();
        Map<String, Integer> changesOf = new LinkedHashMap<>();
        for (NameMapping name : names) {
            LastNonEmpty.Decision decision = decide(DesiredRecords.of(state, name));
            if (decision.records() == null) {
                inSync.add(name.name());
                continue;
            }
            RecordDiff diff;
            try {
                diff = RecordDiff.between(name.name(), name.types(), name.ttlSeconds(), server.read(name),
                        decision.records());
            } catch (DnsUpdateException e) {
                fail(zone, e);
                failed.add(name.name());
                if (e.reason() == DnsUpdateException.Reason.UNREACHABLE) {
                    names.forEach(n -> failed.add(n.name())); // the same server: the zone's other names would wait too
                    return 0;
                }
                continue;
            }
            if (diff.isEmpty()) {
                inSync.add(name.name());
                continue;
            }
            changesOf.put(name.name(), diff.size());
            for (RecordChange c : diff.changes()) {
                (c.op() == RecordChange.Op.ADD ? adds : deletes).add(c);
            }
        }
        if (changesOf.isEmpty()) {
            recovered(zone, failed, names);
            return 0;
        }
        List<RecordChange> all = new ArrayList<>(adds);
        all.addAll(deletes);
        int granted = budget.take(all.size());
        List<RecordChange> batch = all.subList(0, granted);
        if (!batch.isEmpty()) {
            try {
                server.update(names.get(0), batch);
            } catch (DnsUpdateException e) {
                fail(zone, e);
                failed.addAll(changesOf.keySet());
                return 0;
            }
            metrics.applied(batch);
            LOG.info("zone {}: {} change(s) applied: {}{}", zone, batch.size(),
                    batch.subList(0, Math.min(batch.size(), CHANGES_LOGGED)),
                    batch.size() > CHANGES_LOGGED ? " ..." : "");
            recovered(zone, failed, names);
        }
        Map<String, Integer> left = new HashMap<>(changesOf);
        batch.forEach(c -> left.merge(c.name(), -1, Integer::sum));
        left.forEach((name, n) -> (n == 0 ? inSync : waiting).add(name));
        int pending = all.size() - granted;
        if (pending > 0) {
            LOG.info("zone {}: {} change(s) wait for the change budget", zone, pending);
        }
        return pending;
    }

    /** Nanoseconds until the change budget allows one more change. */
    long nanosUntilBudget() {
        return budget.nanosUntilNext();
    }

    private LastNonEmpty.Decision decide(NameTarget target) {
        String name = target.mapping().name();
        skipped.put(name, new int[] {target.hostNames().size(), target.otherFamily().size()});
        Set<String> warned = hostNamesWarned.computeIfAbsent(name, n -> new HashSet<>());
        warned.retainAll(target.hostNames());
        for (String id : target.hostNames()) {
            if (warned.add(id)) {
                LOG.warn("{}: member {} of group {} is served but its address is a host name, not an IP: left out"
                        + " (the dns role does not resolve names)", name, id, target.mapping().group());
            }
        }
        LastNonEmpty.Decision decision = memory.decide(target);
        if (decision.episodeStarted()) {
            metrics.keptLastEpisode();
            String group = "group " + target.mapping().group();
            String why = !target.groupKnown() ? group + " is not in the state topics"
                    : target.viewKeptLast() ? group + " has no member to serve (not fail-open)"
                    : group + " has no served member with an address this name holds";
            LOG.warn("{}: {}; keeping {} rather than answering nothing", name, why,
                    decision.records() == null ? "what the zone holds" : "its last set " + decision.records());
        } else if (decision.episodeEnded()) {
            LOG.info("{}: group {} has served members again: {}", name, target.mapping().group(), decision.records());
        }
        return decision;
    }

    private void fail(NameMapping.ZoneRef zone, DnsUpdateException e) {
        metrics.failed(e.reason());
        DnsUpdateException.Reason before = failing.put(zone, e.reason());
        if (before != e.reason()) {
            LOG.warn("zone {}: {} ({}); retried, other zones go on", zone, e.getMessage(), e.reason().label());
        } else {
            LOG.debug("zone {}: {} ({})", zone, e.getMessage(), e.reason().label());
        }
    }

    private void recovered(NameMapping.ZoneRef zone, Set<String> failed, List<NameMapping> names) {
        if (names.stream().noneMatch(n -> failed.contains(n.name())) && failing.remove(zone) != null) {
            LOG.info("zone {}: reachable and in sync again", zone);
        }
    }
}
