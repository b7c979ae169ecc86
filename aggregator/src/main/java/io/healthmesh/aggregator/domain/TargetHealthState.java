package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Everything the aggregator stores per target: the definition's essentials (with the generation), the overall
 * status with when it was entered and what it was before, the stale flag, one {@link RegionState} per known region,
 * and the last result applied. Immutable; each input returns a {@link TargetUpdate} with the next state.
 *
 * <p>Rules (BEHAVIOUR.md sections 2, 6 and 8):
 * <ul>
 *   <li>A new target starts DETECTING (DISABLED when checking is off), with no known region.</li>
 *   <li>A result counts only if the target is enabled, was probed under the current generation, comes from a
 *       listed region, and started after the last result applied from its region; it then steps that region's
 *       machine and the overall status is recombined by the target's {@link QuorumRule}. A status change is dated
 *       by the result's completion time.</li>
 *   <li>An INCONCLUSIVE result (the prober's own trouble, BEHAVIOUR.md section 4) is like a missing result: no counter moves,
 *       the status and the last result stay, and it does not count as heard, so it can only let the region go
 *       stale. A known region records how many came in a row and the last one's detail.</li>
 *   <li>A changed generation, or checking switched back on, starts over: DETECTING, no known region. Checking
 *       switched off: DISABLED. Otherwise (thresholds, timing, regions, quorum, group) the machines keep their
 *       counters, are re-evaluated under the new thresholds, unlisted regions are forgotten, and the overall status
 *       is recombined.</li>
 *   <li>{@link #checkStaleness}: a region with no result for the staleness window stops voting; the target is
 *       stale when no region votes and nothing was heard for the window. A stale target keeps its status.</li>
 * </ul>
 *
 * <p>Staleness is measured on the clock the caller judges silence by ({@link StalenessRule}): the "now" given to
 * {@link #create}, {@link #redefine}, {@link #apply}, {@link #checkStaleness} and {@link #nextStalenessCheckMs} is
 * the aggregator task's {@link ReadClock} (replay: the record time), so that the times stored here
 * ({@code watchSinceMs}, each region's {@code lastHeardAtMs}) are compared only with times of the same clock.
 *
 * @param previousStatus the status before {@code status} was entered; {@code null} for a target that never changed
 * @param sinceMs when {@code status} was entered, epoch ms
 * @param watchSinceMs time ({@link ReadClock}) since which results are expected (creation, new generation,
 *     checking switched on): a target that never reported goes stale one window after it
 * @param lastResult last result applied, or {@code null}
 * @param regions known regions by name
 */
public record TargetHealthState(TargetEssentials spec, HealthStatus status, HealthStatus previousStatus, long sinceMs,
                                boolean stale, long watchSinceMs, LastResult lastResult,
                                SortedMap<String, RegionState> regions) {

    public TargetHealthState {
        requireNonNull(spec, "spec");
        requireNonNull(status, "status");
        regions = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(regions, "regions")));
    }

    /** A target seen for the first time. */
    public static TargetUpdate create(TargetEssentials spec, long eventTimeMs, long nowMs) {
        HealthStatus initial = spec.enabled() ? HealthStatus.DETECTING : HealthStatus.DISABLED;
        return TargetUpdate.of(null,
                new TargetHealthState(spec, initial, null, eventTimeMs, false, nowMs, null, new TreeMap<>()));
    }

    public String targetId() {
        return spec.id();
    }

    public long generation() {
        return spec.generation();
    }

    /** The regions that vote: known and not stale. */
    public List<RegionState> voters() {
        List<RegionState> voters = new ArrayList<>();
        for (RegionState region : regions.values()) {
            if (!region.stale()) {
                voters.add(region);
            }
        }
        return voters;
    }

    /** Applies a new version of the definition (same id). */
    public TargetUpdate redefine(TargetEssentials next, long eventTimeMs, long nowMs) {
        requireNonNull(next, "next");
        if (!next.id().equals(spec.id())) {
            throw new IllegalArgumentException("id: " + next.id() + " (expected: " + spec.id() + ")");
        }
        if (!next.enabled()) {
            return TargetUpdate.of(this, withStatus(HealthStatus.DISABLED, eventTimeMs)
                    .rebuild(next, false, watchSinceMs, lastResult, new TreeMap<>()));
        }
        if (!spec.enabled() || next.generation() != spec.generation()) {
            // new probe parameters (or checking back on): earlier results judged something else
            return TargetUpdate.of(this, withStatus(HealthStatus.DETECTING, eventTimeMs)
                    .rebuild(next, false, nowMs, null, new TreeMap<>()));
        }
        boolean thresholdsChanged = !next.thresholds().equals(spec.thresholds());
        TreeMap<String, RegionState> kept = new TreeMap<>();
        for (RegionState region : regions.values()) {
            if (next.listsRegion(region.region())) {
                kept.put(region.region(), thresholdsChanged
                        ? region.withMachine(region.machine().rethreshold(next.thresholds()).state())
                        : region);
            }
        }
        TargetHealthState redefined = rebuild(next, stale, watchSinceMs, lastResult, kept);
        return TargetUpdate.of(this, redefined.recombined(eventTimeMs));
    }

    /** Applies one probe result read at {@code nowMs} ({@link ReadClock}): the time it was heard. */
    public TargetUpdate apply(ProbeObservation result, long nowMs) {
        requireNonNull(result, "result");
        if (status == HealthStatus.DISABLED) {
            return TargetUpdate.ignored(this, IgnoredBecause.DISABLED);
        }
        if (result.generation() != spec.generation()) {
            return TargetUpdate.ignored(this, IgnoredBecause.OTHER_GENERATION);
        }
        if (!spec.listsRegion(result.region())) {
            return TargetUpdate.ignored(this, IgnoredBecause.UNLISTED_REGION);
        }
        RegionState known = regions.get(result.region());
        if (known != null && result.startedAtMs() <= known.lastResultAtMs()) {
            return TargetUpdate.ignored(this, IgnoredBecause.OUT_OF_ORDER);
        }
        if (!result.outcome().isConclusive()) {
            if (known == null) {
                return TargetUpdate.ignored(this, IgnoredBecause.INCONCLUSIVE);
            }
            TreeMap<String, RegionState> next = new TreeMap<>(regions);
            next.put(known.region(), known.withInconclusive(result.detail()));
            return TargetUpdate.inconclusive(this, rebuild(spec, stale, watchSinceMs, lastResult, next));
        }
        HealthStateMachine machine = known == null ? HealthStateMachine.detecting(spec.generation()) : known.machine();
        Transition step = machine.observe(result.outcome().isSuccess(), spec.thresholds());
        TreeMap<String, RegionState> next = new TreeMap<>(regions);
        next.put(result.region(), new RegionState(result.region(), step.state(), result.outcome(),
                result.startedAtMs(), nowMs, false));
        TargetHealthState applied = rebuild(spec, false, watchSinceMs, LastResult.of(result), next);
        return TargetUpdate.of(this, applied.recombined(result.completedAtMs()));
    }

    /**
     * Re-checks staleness at {@code nowMs} ({@link ReadClock}).
     *
     * @param notBeforeMs when this aggregator instance started watching the target; silence before it does not count
     */
    public TargetUpdate checkStaleness(long nowMs, long notBeforeMs, StalenessRule rule) {
        return checkStaleness(nowMs, notBeforeMs, rule, null);
    }

    /**
     * Re-checks staleness at {@code nowMs} ({@link ReadClock}) and forgets regions that stayed stale and silent for
     * {@code trust}'s eviction time ({@code null}: none is forgotten). A status change that follows (a region that
     * stops voting) is dated {@code nowMs}.
     *
     * @param notBeforeMs when this aggregator instance started watching the target; silence before it does not count
     */
    public TargetUpdate checkStaleness(long nowMs, long notBeforeMs, StalenessRule rule, ResultTrust trust) {
        requireNonNull(rule, "rule");
        if (status == HealthStatus.DISABLED) {
            return TargetUpdate.of(this, this);
        }
        TreeMap<String, RegionState> next = new TreeMap<>();
        boolean anyVoter = false;
        for (RegionState region : regions.values()) {
            // only a result clears staleness: a clock that steps back must not bring a silent region back to vote
            boolean regionStale = region.stale() || rule.isStale(nowMs, region.lastHeardAtMs(), notBeforeMs,
                    spec.intervalMs(), spec.timeoutMs());
            if (regionStale && trust != null && trust.evicts(nowMs, region.lastHeardAtMs(), notBeforeMs)) {
                continue; // silent for long: forgotten, so state stays bounded (BEHAVIOUR.md section 9)
            }
            anyVoter |= !regionStale;
            next.put(region.region(), region.withStale(regionStale));
        }
        boolean targetStale = !anyVoter
                && (stale || rule.isStale(nowMs, watchSinceMs, notBeforeMs, spec.intervalMs(), spec.timeoutMs()));
        TargetHealthState checked = rebuild(spec, targetStale, watchSinceMs, lastResult, next);
        return TargetUpdate.of(this, checked.recombined(nowMs));
    }

    /**
     * The earliest time ({@link ReadClock}) at which {@link #checkStaleness(long, long, StalenessRule, ResultTrust)}
     * can change this state; {@link Long#MAX_VALUE} when no passing of time alone can (a disabled target, or a stale
     * one whose regions are all stale and never forgotten). Before this instant the check returns the state
     * unchanged, so it need not run: the aggregator checks each target when it falls due instead of reading every
     * target on every punctuation. A check at or after it may still change nothing (an earlier candidate than
     * needed is harmless: it only costs a check).
     *
     * @param notBeforeMs when this aggregator instance started watching the target
     * @param trust the eviction rule, or {@code null} when no region is forgotten
     */
    public long nextStalenessCheckMs(long notBeforeMs, StalenessRule rule, ResultTrust trust) {
        requireNonNull(rule, "rule");
        if (status == HealthStatus.DISABLED) {
            return Long.MAX_VALUE;
        }
        long window = rule.windowMs(spec.intervalMs(), spec.timeoutMs());
        long next = Long.MAX_VALUE;
        boolean anyVoter = false;
        for (RegionState region : regions.values()) {
            long heard = Math.max(region.lastHeardAtMs(), notBeforeMs);
            if (!region.stale()) {
                if (stale) {
                    return notBeforeMs; // a stale target with a voting region: the check would clear it at once
                }
                anyVoter = true;
                next = Math.min(next, after(heard, window));
            } else if (trust != null) {
                next = Math.min(next, after(heard, trust.regionEvictionMs()));
            }
        }
        if (!stale && !anyVoter) {
            // with a region voting, the target cannot go stale before that region does (its time is above)
            next = Math.min(next, after(Math.max(watchSinceMs, notBeforeMs), window));
        }
        return next;
    }

    /** The first millisecond strictly more than {@code windowMs} after {@code fromMs}; saturates. */
    private static long after(long fromMs, long windowMs) {
        long at = fromMs + windowMs + 1;
        return at < fromMs ? Long.MAX_VALUE : at;
    }

    /** This state with the overall status recombined from the regions; a change is dated {@code atMs}. */
    private TargetHealthState recombined(long atMs) {
        List<HealthStatus> votes = new ArrayList<>();
        for (RegionState voter : voters()) {
            votes.add(voter.machine().vote());
        }
        int silent = regions.size() - votes.size();
        return withStatus(spec.quorum().combine(votes, silent, status), atMs);
    }

    private TargetHealthState withStatus(HealthStatus next, long atMs) {
        if (next == status) {
            return this;
        }
        return new TargetHealthState(spec, next, status, atMs, stale, watchSinceMs, lastResult, regions);
    }

    private TargetHealthState rebuild(TargetEssentials nextSpec, boolean nextStale, long nextWatchSinceMs,
                                      LastResult nextLastResult, Map<String, RegionState> nextRegions) {
        return new TargetHealthState(nextSpec, status, previousStatus, sinceMs, nextStale, nextWatchSinceMs,
                nextLastResult, new TreeMap<>(nextRegions));
    }
}
