package io.healthmesh.bench.run;

import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.contract.serde.AvroSerde;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the probe results as they reach Kafka and keeps their scheduling lags (the prober stamps each result with
 * how late it started); for the targets being tracked, keeps every result, to find the first failing probe after a
 * flip.
 */
public final class ResultTap extends TopicTap<ProbeResult> {

    /** One result of a tracked target. */
    public record Observation(long startedAtMs, boolean success, long latencyMicros, long receivedEpochMicros) {
    }

    /** What arrived since the last {@link #reset()}. */
    public record Window(long results, long failures, long elapsedNanos, long[] lagMicrosSorted,
                         Map<String, Long> failuresByOutcome) {

        public double perSecond() {
            return results * 1e9 / elapsedNanos;
        }
    }

    private final AtomicLong results = new AtomicLong();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Map<ProbeOutcome, AtomicLong> byOutcome = new ConcurrentHashMap<>();
    private final Map<ProbeOutcome, String> details = new ConcurrentHashMap<>();
    private final LongSamples lags = new LongSamples(30_000_000);
    private final Map<String, List<Observation>> tracked = new ConcurrentHashMap<>();
    private volatile Set<String> trackedIds = Set.of();
    private volatile long windowStart = System.nanoTime();

    public ResultTap(BenchStack stack) {
        super(stack, stack.topics().probeResults(), AvroSerde.forValues(ProbeResult.class, stack.serdeConfig())
                .deserializer(), "read_uncommitted");
        startReading();
    }

    @Override
    void onRecord(String key, ProbeResult value, long receivedEpochMicros) {
        results.incrementAndGet();
        total.incrementAndGet();
        boolean success = value.getOutcome() == ProbeOutcome.SUCCESS;
        if (!success) {
            // INCONCLUSIVE (the prober's own trouble) is listed by outcome but is not a failed probe
            if (value.getOutcome() != ProbeOutcome.INCONCLUSIVE) {
                failures.incrementAndGet();
            }
            byOutcome.computeIfAbsent(value.getOutcome(), o -> new AtomicLong()).incrementAndGet();
            if (value.getDetail() != null) {
                details.putIfAbsent(value.getOutcome(), value.getDetail());
            }
        }
        lags.add(value.getSchedulingLagMicros());
        if (trackedIds.contains(key)) {
            List<Observation> list = tracked.computeIfAbsent(key, k -> new ArrayList<>());
            synchronized (list) {
                if (list.size() < 100_000) {
                    list.add(new Observation(value.getStartedAtMs(), success, value.getLatencyMicros(),
                            receivedEpochMicros));
                }
            }
        }
    }

    /** Results received since the tap started (never reset). */
    public long total() {
        return total.get();
    }

    /** Starts a new window: counts and lags from now on. */
    public void reset() {
        lags.clear();
        results.set(0);
        failures.set(0);
        byOutcome.clear();
        details.clear();
        windowStart = System.nanoTime();
    }

    public Window window() {
        Map<String, Long> outcomes = new java.util.TreeMap<>();
        byOutcome.forEach((outcome, count) -> outcomes.put(outcome.name() + (details.containsKey(outcome)
                ? " (e.g. \"" + details.get(outcome) + "\")" : ""), count.get()));
        return new Window(results.get(), failures.get(), System.nanoTime() - windowStart, lags.sorted(), outcomes);
    }

    /** Keeps every result of these targets from now on. */
    public void track(Set<String> ids) {
        trackedIds = Set.copyOf(ids);
    }

    /** The results of a tracked target, in arrival order. */
    public List<Observation> observations(String id) {
        List<Observation> list = tracked.getOrDefault(id, List.of());
        synchronized (list) {
            return List.copyOf(list);
        }
    }
}
