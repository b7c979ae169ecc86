package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetUpdate;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.IntervalState;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * An estimate of what other state-dependent intervals ({@code --fast-interval}, {@code --down-interval}) would have
 * done to one target, from results probed at the intervals then in force (the method of BEHAVIOUR.md section 5b,
 * "Replaying other intervals"):
 * <ol>
 *   <li>each region's recorded results are a step function of time: a result's outcome (and latency) holds from its
 *       start until the next result of that region starts;</li>
 *   <li>that function is sampled at the schedule the prober's {@link IntervalState} would have followed: the first
 *       recorded start, then each next start one interval later, the interval of the phase the samples so far put it
 *       in (steady: the recorded {@code intervalMs}, pending: the fast interval, down: the down interval), up to the
 *       region's last recorded start;</li>
 *   <li>the samples of all regions, in completion order, go through the aggregator's state machine
 *       ({@link TargetHealthState}), as do the recorded results for the figures next to them.</li>
 * </ol>
 * A detection delay is the time from the start of the recorded failure run (the first failure after a success, any
 * region) to the UNHEALTHY it caused; a recovery delay the same from the first success after a failure to HEALTHY. The
 * true state between two recorded results is unknown, so an alternative faster than the recorded interval cannot see
 * a change earlier than the recorded result that showed it: the estimate is a lower bound on what changes, not a
 * measurement.
 */
public final class IntervalEstimate {

    /** The intervals of the three phases, in ms. */
    public record Intervals(int steadyMs, int fastMs, int downMs) {
        public Intervals {
            if (steadyMs < 1 || fastMs < 1 || downMs < 1) {
                throw new IllegalArgumentException("intervals: " + steadyMs + "/" + fastMs + "/" + downMs
                        + " ms (expected: each 1 ms or more)");
            }
        }

        int of(IntervalState.Phase phase) {
            return switch (phase) {
                case STEADY -> steadyMs;
                case PENDING -> fastMs;
                case DOWN -> downMs;
            };
        }
    }

    /**
     * What one sequence of results did within the range.
     *
     * @param probes results that started within the range
     * @param probesPerHour {@code probes} over the range's length
     * @param detectionMs one delay per UNHEALTHY entered within the range
     * @param recoveryMs one delay per HEALTHY entered after UNHEALTHY within the range
     */
    public record Figures(int probes, double probesPerHour, List<Long> detectionMs, List<Long> recoveryMs) {
        public Figures {
            detectionMs = List.copyOf(detectionMs);
            recoveryMs = List.copyOf(recoveryMs);
        }
    }

    /** One target: the recorded run and the estimate, with the intervals the estimate used. */
    public record TargetEstimate(String targetId, Intervals intervals, Figures recorded, Figures estimated) {
    }

    private IntervalEstimate() {
    }

    /**
     * @param spec the target's definition (the alternative thresholds applied), for the state machine
     * @param intervals the phases' intervals of the alternative
     * @param recorded the target's recorded results, in offset order (warm-up included)
     * @param fromMs start of the range ({@code Long.MIN_VALUE}: from the first result)
     * @param toMs end of the range
     */
    public static TargetEstimate of(TargetEssentials spec, Intervals intervals, List<ProbeObservation> recorded,
                                    long fromMs, long toMs) {
        requireNonNull(spec, "spec");
        List<ProbeObservation> samples = new ArrayList<>();
        Map<String, List<ProbeObservation>> byRegion = new TreeMap<>();
        for (ProbeObservation o : recorded) {
            byRegion.computeIfAbsent(o.region(), k -> new ArrayList<>()).add(o);
        }
        byRegion.values().forEach(region -> samples.addAll(resample(region, spec, intervals)));
        List<long[]> truth = changes(recorded);
        return new TargetEstimate(spec.id(), intervals, run(spec, recorded, truth, fromMs, toMs),
                run(spec, samples, truth, fromMs, toMs));
    }

    /** One region's step function sampled at the schedule its {@link IntervalState} would have followed. */
    static List<ProbeObservation> resample(List<ProbeObservation> region, TargetEssentials spec, Intervals intervals) {
        List<ProbeObservation> sorted = new ArrayList<>(region);
        sorted.sort(Comparator.comparingLong(ProbeObservation::startedAtMs));
        List<ProbeObservation> out = new ArrayList<>();
        if (sorted.isEmpty()) {
            return out;
        }
        IntervalState state = IntervalState.START;
        long last = sorted.get(sorted.size() - 1).startedAtMs();
        int at = 0;
        for (long t = sorted.get(0).startedAtMs(); t <= last; t += intervals.of(state.phase())) {
            while (at + 1 < sorted.size() && sorted.get(at + 1).startedAtMs() <= t) {
                at++;
            }
            ProbeObservation holding = sorted.get(at);
            out.add(new ProbeObservation(holding.region(), holding.generation(), holding.outcome(), t,
                    holding.latencyMicros(), holding.detail()));
            if (holding.outcome().isConclusive()) {
                state = state.after(holding.outcome().isSuccess(), spec.thresholds().healthy(),
                        spec.thresholds().unhealthy());
            }
        }
        return out;
    }

    /** The recorded changes of outcome, any region: {start, 1 for a success run / 0 for a failure run}. */
    private static List<long[]> changes(List<ProbeObservation> recorded) {
        List<ProbeObservation> sorted = new ArrayList<>(recorded);
        sorted.sort(Comparator.comparingLong(ProbeObservation::startedAtMs));
        List<long[]> out = new ArrayList<>();
        Boolean last = null;
        for (ProbeObservation o : sorted) {
            if (!o.outcome().isConclusive()) {
                continue;
            }
            boolean success = o.outcome().isSuccess();
            if (last == null || last != success) {
                out.add(new long[] {o.startedAtMs(), success ? 1 : 0});
                last = success;
            }
        }
        return out;
    }

    private static Figures run(TargetEssentials spec, List<ProbeObservation> results, List<long[]> truth, long fromMs,
                               long toMs) {
        List<ProbeObservation> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparingLong(ProbeObservation::completedAtMs));
        List<Long> detection = new ArrayList<>();
        List<Long> recovery = new ArrayList<>();
        int probes = 0;
        long first = Long.MAX_VALUE;
        TargetHealthState state = null;
        for (ProbeObservation o : sorted) {
            long ts = o.completedAtMs();
            if (state == null) {
                state = TargetHealthState.create(spec, o.startedAtMs(), o.startedAtMs()).after();
            }
            if (o.startedAtMs() >= fromMs && o.startedAtMs() <= toMs) {
                probes++;
                first = Math.min(first, o.startedAtMs());
            }
            TargetUpdate update = state.apply(o, ts);
            if (update.ignored() != null) {
                continue;
            }
            HealthStatus before = state.status();
            state = update.after();
            if (!update.statusChanged() || state.sinceMs() < fromMs || state.sinceMs() > toMs) {
                continue;
            }
            if (state.status() == HealthStatus.UNHEALTHY) {
                detection.add(state.sinceMs() - runStart(truth, false, state.sinceMs()));
            } else if (state.status() == HealthStatus.HEALTHY && before == HealthStatus.UNHEALTHY) {
                recovery.add(state.sinceMs() - runStart(truth, true, state.sinceMs()));
            }
        }
        long start = fromMs == Long.MIN_VALUE ? first : fromMs;
        double hours = start >= toMs ? 0 : (toMs - start) / 3_600_000.0;
        return new Figures(probes, hours == 0 ? 0 : probes / hours, detection, recovery);
    }

    /** The start of the latest recorded run of successes (or failures) that began at or before {@code atMs}. */
    private static long runStart(List<long[]> truth, boolean success, long atMs) {
        long found = atMs;
        for (long[] c : truth) {
            if (c[0] > atMs) {
                break;
            }
            if ((c[1] == 1) == success) {
                found = c[0];
            }
        }
        return found;
    }
}
