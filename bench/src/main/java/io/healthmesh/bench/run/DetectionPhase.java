package io.healthmesh.bench.run;

import io.healthmesh.bench.farm.FarmTarget;
import io.healthmesh.bench.farm.FlipSchedule;
import io.healthmesh.bench.farm.TargetFarm;
import io.healthmesh.bench.farm.Transition;
import io.healthmesh.bench.peers.HaproxyPeer;
import io.healthmesh.bench.peers.PeerStateChange;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Detection time and pipeline latency. The farm flips {@code perProtocol} TCP and HTTP targets down and up once,
 * at random instants; healthmesh (prober and aggregator) and HAProxy check the same targets with the same interval
 * and thresholds at the same time. Measured per flip:
 * <ul>
 *   <li>healthmesh: flip to the state event at a {@code read_committed} consumer, and its error against the SPEC
 *       section 5 formula counted from the first probe that saw the change: L4 {@code interval x (threshold - 1)},
 *       L7 {@code responseTime x threshold + interval x (threshold - 1)} with the measured response time;</li>
 *   <li>HAProxy: flip to its log line saying the server is DOWN or UP;</li>
 *   <li>pipeline latency: a state-changing probe's completion to its state event at the consumer.</li>
 * </ul>
 */
public final class DetectionPhase {

    private static final Logger LOG = LoggerFactory.getLogger(DetectionPhase.class);

    /**
     * Detection of one protocol and direction, in milliseconds, for healthmesh and HAProxy.
     *
     * @param scheduleMs the error's first part: the deciding probe's start against the first probe's start plus
     *     {@code interval x (threshold - 1)} (0 at a fixed rate but for the timer's jitter; at a fixed delay it also
     *     holds the earlier probes' response times and the timer's rounding)
     * @param pipelineMs the error's second part: the deciding probe's completion to the event at the consumer
     */
    public record Figure(Protocol protocol, boolean toUp, int flips, long[] healthmeshMs, long[] healthmeshErrorMs,
                         long[] scheduleMs, long[] pipelineMs, long[] haproxyMs, String formula, int missedHealthmesh,
                         int missedHaproxy) {
    }

    /**
     * Both directions of both protocols, and the latency samples (µs): whole, and split at the instant the aggregator
     * wrote the event ({@code updatedAtMs}, millisecond precision): probe completion to the aggregator's processing
     * (prober publishing, broker, aggregator fetch and step), then processing to the consumer (exactly-once commit,
     * {@code read_committed} fetch).
     *
     * @param toResultMicros from the probe's completion to the driver's consumer reading its result (the prober's
     *     publishing and the broker; part of {@code toAggregatorMicros}), for the changes whose result it read
     * @param aggregatorGate what the wait for the aggregator to keep up found, {@code null} when not asked
     * @param jitGate what the wait for the JIT compilers to go quiet found, {@code null} when not asked
     * @param rehearsal the unmeasured first round's figures in a sentence ({@link #summary()}), {@code null} when
     *     there was none
     */
    public record Result(List<Figure> figures, long[] latencyMicros, long[] toResultMicros, long[] toAggregatorMicros,
                         long[] toConsumerMicros, int intervalMs, int thresholds, String aggregatorGate,
                         String jitGate, String rehearsal) {

        /** probe -> event p50 / p99 and the worst case's error p99, in one sentence. */
        public String summary() {
            long worst = Long.MIN_VALUE;
            for (Figure f : figures) {
                if (f.healthmeshErrorMs().length > 0) {
                    worst = Math.max(worst, (long) LongSamples.percentile(f.healthmeshErrorMs(), 99));
                }
            }
            return String.format(java.util.Locale.ROOT, "%d state changes, probe -> event p50 %.1f / p99 %.1f ms, "
                            + "detection error p99 (worst case of the four) %s", latencyMicros.length,
                    LongSamples.percentile(latencyMicros, 50) / 1000, LongSamples.percentile(latencyMicros, 99) / 1000,
                    worst == Long.MIN_VALUE ? "without a sample" : worst + " ms");
        }
    }

    /**
     * The wait, before the flips, for the aggregator to keep up with its input.
     *
     * @param within the longest wait; the flips start after it whatever the lag, and the report says so
     */
    public record AggregatorGate(KeepingUp keepingUp, Duration within) {
    }

    /**
     * The wait, after the steady probing and before the aggregator gate, for the JVMs' JIT compilers to go quiet
     * ({@link JitQuiet}).
     *
     * @param within the longest wait; the flips start after it whatever the compilers do, and the report says so
     */
    public record JitGate(JitQuiet quiet, double maxMillisPerSecond, int consecutive, Duration within) {
    }

    private DetectionPhase() {
    }

    /**
     * How the phase shares its time with others.
     *
     * @param whileStarting run once the targets are applied and HAProxy started, before waiting for every target
     *     to be HEALTHY: the wait for a cold aggregator, which other work the phase does not measure can overlap
     *     (the short mode measures blackbox_exporter there); {@code null} for none
     * @param endOnceRecovered end the flips once every flipped target is back up at the farm and both healthmesh
     *     and HAProxy have reported it so, instead of after the fixed settle time (which stays the bound)
     */
    public record Overlap(Runnable whileStarting, boolean endOnceRecovered) {

        /** The full mode's: nothing overlapped, the fixed settle time. */
        public static final Overlap NONE = new Overlap(null, false);
    }

    public static Result run(TargetFarm farm, TargetLoader loader, ResultTap results, StateTap states, Path workDir,
                             int perProtocol, int intervalMs, int threshold, Duration downFor, Duration warmup,
                             boolean rehearsal, PhaseTimes times, Overlap overlap, JitGate jit, AggregatorGate gate)
            throws IOException, InterruptedException {
        int timeoutMs = Math.min(intervalMs, 1_000);
        List<FarmTarget> flipped = new ArrayList<>();
        flipped.addAll(farm.targets(Protocol.TCP).subList(0, Math.min(perProtocol, farm.targets(Protocol.TCP).size())));
        flipped.addAll(farm.targets(Protocol.HTTP).subList(0, Math.min(perProtocol, farm.targets(Protocol.HTTP).size())));
        Map<String, FarmTarget> byId = new HashMap<>();
        Map<FarmTarget, TargetSpec> specOf = new HashMap<>();
        List<TargetSpec> specs = new ArrayList<>();
        for (FarmTarget t : flipped) {
            TargetSpec spec = FarmSpecs.spec("det-" + t.key(), t, intervalMs, timeoutMs, threshold, threshold);
            specs.add(spec);
            byId.put(spec.id(), t);
            specOf.put(t, spec);
        }
        results.track(byId.keySet());
        loader.apply(specs);
        try (HaproxyPeer haproxy = HaproxyPeer.start(HaproxyPeer.DEFAULT_BINARY, workDir, flipped, intervalMs,
                timeoutMs, threshold, threshold, 100)) {
            if (overlap.whileStarting() != null) {
                overlap.whileStarting().run();
                times.mark("detection: overlapped work");
            }
            // the aggregator's JVM may still be starting (JFR, JIT, its topics and stores on 2 busy cores: tens of
            // seconds): flips before every target is HEALTHY would measure that start, not detection
            awaitHealthy(states, byId.keySet(), Duration.ofMillis(intervalMs * (threshold + 2L) + 90_000));
            times.mark("detection: targets HEALTHY");
            // steady probing before the flips, so that neither JVM is still compiling its hot paths
            TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
            times.mark("detection: steady probing");
            String rehearsalOutcome = null;
            if (rehearsal) {
                // one unmeasured round of the same flips: the paths a state change takes (failed probes, state and
                // group events, the feed, HAProxy's DOWN handling) are compiled before the measured round, as in a
                // checker that has run for a while; the JIT gate below waits for those compilations
                long from = flipRound(farm, flipped, specOf, states, haproxy, intervalMs, threshold,
                        Duration.ofMillis(Math.max(2L * intervalMs, 2_000)), downFor, true);
                rehearsalOutcome = analyse(from, nowMicros(), specOf, byId, farm, results, states, haproxy, intervalMs,
                        threshold).summary();
                LOG.info("detection: rehearsal round: {}", rehearsalOutcome);
                times.mark("detection: rehearsal round");
            }
            String jitOutcome = null;
            if (jit != null) {
                JitQuiet.Outcome quiet = jit.quiet().await(jit.maxMillisPerSecond(), jit.consecutive(),
                        Duration.ofSeconds(1), jit.within());
                jitOutcome = logged(quiet.quiet(), quiet.describe());
                times.mark("detection: until the JIT compilers went quiet");
            }
            String gateOutcome = null;
            if (gate != null) {
                // a quarter of a second of the flipped targets' results, committed lag included
                long atMost = Math.max(20, flipped.size() * 1_000L / intervalMs / 4);
                KeepingUp.Outcome kept = gate.keepingUp().await(atMost, 3, Duration.ofSeconds(1), gate.within());
                gateOutcome = logged(kept.keptUp(), kept.describe());
                times.mark("detection: until the aggregator kept up");
            }
            Duration spread = Duration.ofMillis(Math.max(2L * intervalMs, 2_000));
            long flipStartMicros = flipRound(farm, flipped, specOf, states, haproxy, intervalMs, threshold, spread,
                    downFor, overlap.endOnceRecovered());
            times.mark("detection: flips");
            Result measured = analyse(flipStartMicros, Long.MAX_VALUE, specOf, byId, farm, results, states, haproxy,
                    intervalMs, threshold);
            return new Result(measured.figures(), measured.latencyMicros(), measured.toResultMicros(),
                    measured.toAggregatorMicros(), measured.toConsumerMicros(), intervalMs, threshold, gateOutcome,
                    jitOutcome, rehearsalOutcome);
        } finally {
            loader.delete(byId.keySet());
            results.track(Set.of());
        }
    }

    /** Logs a gate's verdict (a warning when its wait ran out) and returns it for the report. */
    private static String logged(boolean passed, String verdict) {
        if (passed) {
            LOG.info("detection: {}", verdict);
        } else {
            LOG.warn("detection: {}", verdict);
        }
        return verdict;
    }

    /**
     * The figures of the flips made from {@code fromMicros} (inclusive) to {@code toMicros} (exclusive), and of the
     * state changes received in that span.
     */
    private static Result analyse(long fromMicros, long toMicros, Map<FarmTarget, TargetSpec> specOf,
                                  Map<String, FarmTarget> byId, TargetFarm farm, ResultTap results, StateTap states,
                                  HaproxyPeer haproxy, int intervalMs, int threshold) {
        List<Transition> flips = farm.transitions().snapshot().stream()
                .filter(t -> t.epochMicros() >= fromMicros && t.epochMicros() < toMicros
                        && specOf.containsKey(t.target()))
                .toList();
        List<StateTap.StateEvent> events = states.events();
        List<PeerStateChange> peer = haproxy.changes();
        List<Figure> figures = new ArrayList<>();
        for (Protocol protocol : List.of(Protocol.TCP, Protocol.HTTP)) {
            for (boolean toUp : List.of(false, true)) {
                figures.add(figure(protocol, toUp, flips, specOf, results, events, peer, intervalMs, threshold));
            }
        }
        List<StateTap.StateEvent> changes = events.stream()
                .filter(e -> e.receivedEpochMicros() >= fromMicros && e.receivedEpochMicros() < toMicros
                        && byId.containsKey(e.targetId()))
                .filter(e -> e.previousStatus() != null && !e.previousStatus().equals(e.status()))
                .filter(e -> e.lastResultAtMs() != null)
                .toList();
        long[] latency = changes.stream()
                .mapToLong(e -> e.receivedEpochMicros() - e.probeCompletedEpochMicros()).sorted().toArray();
        long[] toResult = changes.stream()
                .mapToLong(e -> resultReadAt(results, e) - e.probeCompletedEpochMicros())
                .filter(micros -> micros > Long.MIN_VALUE / 2).sorted().toArray();
        long[] toAggregator = changes.stream()
                .mapToLong(e -> e.updatedAtMs() * 1_000 - e.probeCompletedEpochMicros()).sorted().toArray();
        long[] toConsumer = changes.stream()
                .mapToLong(e -> e.receivedEpochMicros() - e.updatedAtMs() * 1_000).sorted().toArray();
        return new Result(figures, latency, toResult, toAggregator, toConsumer, intervalMs, threshold, null, null,
                null);
    }

    /**
     * Flips every target of {@code flipped} down, at a random instant within {@code spread}, and up again after
     * {@code downFor}; returns when the fixed settle time has passed or, with {@code endOnceRecovered}, once
     * healthmesh and HAProxy have both reported every target back up (the settle time stays the bound). Returns the
     * instant (epoch µs) the round started.
     */
    private static long flipRound(TargetFarm farm, List<FarmTarget> flipped, Map<FarmTarget, TargetSpec> specOf,
                                  StateTap states, HaproxyPeer haproxy, int intervalMs, int threshold, Duration spread,
                                  Duration downFor, boolean endOnceRecovered) throws InterruptedException {
        long flipStartMicros = nowMicros();
        Duration upFor = downFor;
        try (FlipSchedule ignored = FlipSchedule.start(farm, flipped, Duration.ZERO, Duration.ZERO, spread,
                downFor, upFor, 1)) {
            long settle = spread.toMillis() + downFor.toMillis() + upFor.toMillis()
                    + (long) intervalMs * (threshold + 1) + 3_000;
            if (endOnceRecovered) {
                // every up flip happens by spread + downFor; from then on, poll for the last reports
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settle);
                TimeUnit.MILLISECONDS.sleep(spread.toMillis() + downFor.toMillis());
                while (System.nanoTime() - deadline < 0 && !allRecovered(specOf, flipStartMicros,
                        farm.transitions().snapshot(), states.events(), haproxy.changes())) {
                    TimeUnit.MILLISECONDS.sleep(200);
                }
            } else {
                TimeUnit.MILLISECONDS.sleep(settle);
            }
        }
        return flipStartMicros;
    }

    /**
     * True once every target of {@code specOf} has gone down and come back up at the farm since
     * {@code sinceMicros}, and after its return healthmesh sent a HEALTHY event and HAProxy logged it UP: nothing
     * the phase measures is still to come.
     */
    static boolean allRecovered(Map<FarmTarget, TargetSpec> specOf, long sinceMicros, List<Transition> transitions,
                                List<StateTap.StateEvent> events, List<PeerStateChange> peer) {
        Map<FarmTarget, Long> downAt = new HashMap<>();
        Map<FarmTarget, Long> upAt = new HashMap<>();
        for (Transition t : transitions) {
            if (t.epochMicros() < sinceMicros || !specOf.containsKey(t.target())) {
                continue;
            }
            if (!t.up()) {
                downAt.putIfAbsent(t.target(), t.epochMicros());
            } else if (downAt.containsKey(t.target())) {
                upAt.put(t.target(), t.epochMicros());
            }
        }
        if (upAt.size() < specOf.size()) {
            return false;
        }
        Map<String, FarmTarget> byId = new HashMap<>();
        specOf.forEach((target, spec) -> byId.put(spec.id(), target));
        Set<FarmTarget> healthy = new HashSet<>();
        for (StateTap.StateEvent e : events) {
            FarmTarget target = byId.get(e.targetId());
            if (target != null && e.status().equals("HEALTHY") && e.receivedEpochMicros() > upAt.get(target)) {
                healthy.add(target);
            }
        }
        Set<FarmTarget> up = new HashSet<>();
        for (PeerStateChange c : peer) {
            Long at = upAt.get(c.target());
            if (at != null && c.up() && c.epochMicros() > at) {
                up.add(c.target());
            }
        }
        return healthy.size() == specOf.size() && up.size() == specOf.size();
    }

    private static Figure figure(Protocol protocol, boolean toUp, List<Transition> flips,
                                 Map<FarmTarget, TargetSpec> specOf, ResultTap results,
                                 List<StateTap.StateEvent> events, List<PeerStateChange> peer, int intervalMs,
                                 int threshold) {
        String wanted = toUp ? "HEALTHY" : "UNHEALTHY";
        List<Long> hm = new ArrayList<>();
        List<Long> hmError = new ArrayList<>();
        List<Long> hp = new ArrayList<>();
        List<Long> scheduleMs = new ArrayList<>();
        List<Long> pipelineMs = new ArrayList<>();
        int flipsSeen = 0;
        int missedHm = 0;
        int missedHp = 0;
        for (Transition flip : flips) {
            if (flip.target().protocol() != protocol || flip.up() != toUp) {
                continue;
            }
            flipsSeen++;
            TargetSpec spec = specOf.get(flip.target());
            long t = flip.epochMicros();
            StateTap.StateEvent event = events.stream()
                    .filter(e -> e.targetId().equals(spec.id()) && e.status().equals(wanted) && e.receivedEpochMicros() > t)
                    .findFirst().orElse(null);
            if (event == null) {
                missedHm++;
            } else {
                hm.add((event.receivedEpochMicros() - t) / 1_000);
                List<ResultTap.Observation> seen = results.observations(spec.id()).stream()
                        .filter(o -> o.success() == toUp && o.startedAtMs() * 1_000 + o.latencyMicros() >= t)
                        .toList();
                if (seen.size() >= threshold) {
                    long firstStartMicros = seen.get(0).startedAtMs() * 1_000;
                    double responseMicros = seen.stream().limit(threshold)
                            .mapToLong(ResultTap.Observation::latencyMicros).average().orElse(0);
                    double windowMicros = (threshold - 1) * intervalMs * 1_000.0
                            + (protocol.isLayer7() ? responseMicros * threshold : 0);
                    hmError.add((long) ((event.receivedEpochMicros() - firstStartMicros - windowMicros) / 1_000));
                    if (event.lastResultAtMs() != null) {
                        // the error's two parts: the deciding probe's start against the schedule, then its way
                        // from completion to the consumer
                        scheduleMs.add(event.lastResultAtMs() - firstStartMicros / 1_000
                                - (long) (threshold - 1) * intervalMs);
                        pipelineMs.add((event.receivedEpochMicros() - event.probeCompletedEpochMicros()) / 1_000);
                    }
                }
            }
            PeerStateChange change = peer.stream()
                    .filter(c -> c.target().equals(flip.target()) && c.up() == toUp && c.epochMicros() > t)
                    .findFirst().orElse(null);
            if (change == null) {
                missedHp++;
            } else {
                hp.add((change.epochMicros() - t) / 1_000);
            }
        }
        String formula = protocol.isLayer7()
                ? "responseTime x " + threshold + " + " + intervalMs + " ms x " + (threshold - 1)
                : intervalMs + " ms x " + (threshold - 1);
        Figure f = new Figure(protocol, toUp, flipsSeen, sorted(hm), sorted(hmError), sorted(scheduleMs),
                sorted(pipelineMs), sorted(hp), formula, missedHm, missedHp);
        long[] schedule = f.scheduleMs();
        long[] pipeline = f.pipelineMs();
        LOG.info("detection {} {}: {} flips, healthmesh p50 {} ms, haproxy p50 {} ms; error p50 / p99 {} / {} ms, of "
                        + "which the deciding probe's start against the schedule {} / {} ms, its completion to the "
                        + "consumer {} / {} ms", protocol, toUp ? "up" : "down", flipsSeen,
                LongSamples.percentile(f.healthmeshMs(), 50), LongSamples.percentile(f.haproxyMs(), 50),
                LongSamples.percentile(f.healthmeshErrorMs(), 50), LongSamples.percentile(f.healthmeshErrorMs(), 99),
                LongSamples.percentile(schedule, 50), LongSamples.percentile(schedule, 99),
                LongSamples.percentile(pipeline, 50), LongSamples.percentile(pipeline, 99));
        return f;
    }

    /** When the driver's consumer read the result that made this event, {@code Long.MIN_VALUE} if it did not. */
    private static long resultReadAt(ResultTap results, StateTap.StateEvent event) {
        for (ResultTap.Observation o : results.observations(event.targetId())) {
            if (o.startedAtMs() == event.lastResultAtMs()) {
                return o.receivedEpochMicros();
            }
        }
        return Long.MIN_VALUE;
    }

    private static long[] sorted(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static void awaitHealthy(StateTap states, Set<String> ids, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        long healthy = 0;
        while (System.nanoTime() < deadline) {
            healthy = states.countLatest(new HashSet<>(ids), "HEALTHY");
            if (healthy == ids.size()) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        LOG.warn("only {} of {} detection targets HEALTHY after {}", healthy, ids.size(), within);
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
