package io.healthmesh.bench.run;

import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Aggregator throughput on one instance: with the aggregator stopped, {@code count} results for the given targets
 * are produced (current generation, start times in order; per target a cycle of 17 successes then 3 failures, so
 * that one result in ten changes a state and writes a target and a group event, the rest only update counters);
 * the aggregator is started again and the time it takes to commit past all of them
 * is measured from its first committed progress (start-up and rebalance excluded; both are reported).
 */
public final class AggregatorThroughputPhase {

    private static final Logger LOG = LoggerFactory.getLogger(AggregatorThroughputPhase.class);
    /** The furthest ahead a result may be stamped: the broker's default {@code log.message.timestamp.after.max.ms}. */
    static final long MAX_STAMP_AHEAD_MS = 3_600_000;

    /**
     * @param startupSeconds from the aggregator's process start to its first committed progress
     * @param catchUpSeconds from its first committed progress to no lag
     * @param secondHalfSeconds from the committed progress passing half of the results to no lag: the rate once the
     *     JIT has had the first half to compile the path (NaN when not seen)
     * @param secondHalfCpuSeconds CPU time of the aggregator JVMs (every thread: stream threads, their producers,
     *     the status feed, GC, JIT) over the second half (NaN when not seen)
     */
    public record Figure(long results, double startupSeconds, double catchUpSeconds, long progressAtFirstCommit,
                         boolean finished, int instances, double secondHalfSeconds, long secondHalfResults,
                         double secondHalfCpuSeconds) {

        public Figure(long results, double startupSeconds, double catchUpSeconds, long progressAtFirstCommit,
                      boolean finished, int instances, double secondHalfSeconds, long secondHalfResults) {
            this(results, startupSeconds, catchUpSeconds, progressAtFirstCommit, finished, instances, secondHalfSeconds,
                    secondHalfResults, Double.NaN);
        }

        /** Results per second from the first committed progress to no lag. */
        public double resultsPerSecond() {
            return (results - progressAtFirstCommit) / catchUpSeconds;
        }

        /** Results per second over the second half of the catch-up (the warm rate). */
        public double secondHalfPerSecond() {
            return secondHalfResults / secondHalfSeconds;
        }

        /**
         * The aggregator JVMs' CPU per result over the second half, in microseconds: what a result costs once warm,
         * whatever limits the rate (one stream thread, the cores, the broker).
         */
        public double secondHalfCpuMicrosPerResult() {
            return secondHalfCpuSeconds * 1e6 / secondHalfResults;
        }
    }

    private AggregatorThroughputPhase() {
    }

    public static Figure run(BenchStack stack, List<TargetSpec> specs, long count, String group,
                             Supplier<ChildJvm> startAggregator) throws Exception {
        return run(stack, specs, count, group, 1, n -> startAggregator.get());
    }

    /**
     * The same with {@code instances} aggregators of the one application started together ({@code startAggregator}
     * gets the instance number from 1, for its own state directory); timed from the group's first committed progress.
     */
    public static Figure run(BenchStack stack, List<TargetSpec> specs, long count, String group, int instances,
                             IntFunction<ChildJvm> startAggregator) throws Exception {
        return run(stack, specs, count, group, instances, 0, startAggregator);
    }

    /**
     * The same with the results' record timestamps {@code stampAheadMs} in the future: every result then reads as
     * fresh input to the aggregator, which asks for an early commit after each state change ({@code
     * commit.on.change}), the worst case of that setting (a live storm the aggregator keeps up with).
     */
    public static Figure run(BenchStack stack, List<TargetSpec> specs, long count, String group, int instances,
                             long stampAheadMs, IntFunction<ChildJvm> startAggregator) throws Exception {
        if (stampAheadMs < 0 || stampAheadMs > MAX_STAMP_AHEAD_MS) {
            // a broker refuses records stamped more than log.message.timestamp.after.max.ms (1 h) ahead
            throw new IllegalArgumentException("aggregator-stamp-ahead-ms: " + stampAheadMs + " (expected: 0.."
                    + MAX_STAMP_AHEAD_MS + ")");
        }
        String topic = stack.topics().probeResults();
        // the earlier phases' results the group never read (the throughput phases run with the aggregator stopped:
        // millions in a full run) are skipped, so that the phase times exactly the count produced below
        long skipped = GroupLag.skipToEnd(stack.admin(), group, topic, Duration.ofSeconds(60));
        if (skipped > 0) {
            LOG.info("aggregator throughput: skipped {} results of earlier phases the group had not read", skipped);
        }
        long baseLag = GroupLag.lag(stack.admin(), group, topic);
        produce(stack, specs, count, stampAheadMs);
        long start = System.nanoTime();
        List<ChildJvm> started = new ArrayList<>();
        try (AutoCloseable ignored = () -> started.forEach(ChildJvm::close)) {
            for (int n = 1; n <= instances; n++) {
                started.add(startAggregator.apply(n));
            }
            long total = baseLag + count;
            long firstProgressAt = -1;
            long lagAtFirst = total;
            long halfAt = -1;
            long lagAtHalf = 0;
            long cpuAtHalf = 0;
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            while (System.nanoTime() < deadline) {
                long lag = GroupLag.lag(stack.admin(), group, topic);
                long now = System.nanoTime();
                if (firstProgressAt < 0 && lag < total) {
                    firstProgressAt = now;
                    lagAtFirst = lag;
                }
                if (halfAt < 0 && lag > 0 && lag <= total / 2) {
                    halfAt = now;
                    lagAtHalf = lag;
                    cpuAtHalf = cpuNanos(started);
                }
                if (lag == 0) {
                    Figure f = new Figure(total, (firstProgressAt - start) / 1e9, (now - firstProgressAt) / 1e9,
                            total - lagAtFirst, true, instances, halfAt < 0 ? Double.NaN : (now - halfAt) / 1e9,
                            lagAtHalf, halfAt < 0 ? Double.NaN : (cpuNanos(started) - cpuAtHalf) / 1e9);
                    LOG.info("aggregator throughput {} ({} results/s; second half {} results/s)", f,
                            f.resultsPerSecond(), f.secondHalfPerSecond());
                    return f;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            return new Figure(count, Double.NaN, Double.NaN, 0, false, instances, Double.NaN, 0);
        }
    }

    /** The CPU time of {@code jvms} together, in nanoseconds. */
    private static long cpuNanos(List<ChildJvm> jvms) {
        long sum = 0;
        for (ChildJvm jvm : jvms) {
            sum += jvm.cpuNanos();
        }
        return sum;
    }

    static void produce(BenchStack stack, List<TargetSpec> specs, long count) {
        produce(stack, specs, count, 0);
    }

    private static void produce(BenchStack stack, List<TargetSpec> specs, long count, long stampAheadMs) {
        AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, stack.serdeConfig());
        long[] generations = specs.stream().mapToLong(ProbeFingerprint::of).toArray();
        long baseMs = System.currentTimeMillis();
        try (KafkaProducer<String, ProbeResult> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "20",
                ProducerConfig.BATCH_SIZE_CONFIG, "262144"), new StringSerializer(), serde.serializer())) {
            for (long n = 0; n < count; n++) {
                int t = (int) (n % specs.size());
                long round = n / specs.size();
                TargetSpec spec = specs.get(t);
                ProbeResult result = ProbeResult.newBuilder()
                        .setTargetId(spec.id())
                        .setGeneration(generations[t])
                        .setRegion("default")
                        .setProberId("bench-preload")
                        .setProtocol(Protocol.valueOf(spec.protocol().name()))
                        .setStartedAtMs(baseMs + round * 10)
                        .setOutcome(round % 20 < 17 ? ProbeOutcome.SUCCESS : ProbeOutcome.CONNECTION_REFUSED)
                        .setLatencyMicros(150)
                        .setSchedulingLagMicros(0)
                        .build();
                producer.send(new ProducerRecord<>(stack.topics().probeResults(), null,
                        stampAheadMs == 0 ? null : System.currentTimeMillis() + stampAheadMs, spec.id(), result));
            }
            producer.flush();
        }
        LOG.info("pre-produced {} results for {} targets", count, specs.size());
    }
}
