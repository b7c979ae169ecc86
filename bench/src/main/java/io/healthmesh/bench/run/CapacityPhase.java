package io.healthmesh.bench.run;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Heap per target and the target count one prober holds: heap after a full GC in the prober and the aggregator
 * before and after {@code targets} TCP definitions at {@code intervalMs} are loaded, and the scheduling lag of the
 * prober over a window while it probes all of them. The definitions stay applied (the aggregator-throughput phase
 * reuses them). The aggregator's heap is read once it has consumed the definitions and one interval of results;
 * it is then stopped (closed here), so that the prober's window does not share the 2 cores with it.
 */
public final class CapacityPhase {

    private static final Logger LOG = LoggerFactory.getLogger(CapacityPhase.class);

    /** Heap in bytes before and after; the throughput figure of the prober holding every target. */
    public record Figure(int targets, long proberHeapBefore, long proberHeapAfter, long aggregatorHeapBefore,
                         long aggregatorHeapAfter, ThroughputPhase.Figure load, boolean aggregatorCaughtUp,
                         String proberHistogram, String aggregatorHistogram) {

        public double proberBytesPerTarget() {
            return (double) (proberHeapAfter - proberHeapBefore) / targets;
        }

        public double aggregatorBytesPerTarget() {
            return (double) (aggregatorHeapAfter - aggregatorHeapBefore) / targets;
        }
    }

    private CapacityPhase() {
    }

    public static Figure run(ChildJvm prober, ChildJvm aggregator, String aggregatorGroup, Admin admin,
                             String targetsTopic, TargetLoader loader, ResultTap results, List<FarmTarget> farm,
                             List<TargetSpec> specs, int intervalMs, Duration window)
            throws Exception {
        long proberBefore = prober.heapUsedAfterGc();
        long aggregatorBefore = aggregator.heapUsedAfterGc();
        loader.apply(specs);
        double offered = specs.size() * 1000.0 / intervalMs;
        ThroughputPhase.awaitRate(results, offered * 0.9, Duration.ofMillis(2L * intervalMs + 60_000));
        // one more interval so every target has been probed at least once and its state sized
        TimeUnit.MILLISECONDS.sleep(intervalMs);
        boolean caughtUp = awaitQuietly(admin, aggregatorGroup, targetsTopic);
        long aggregatorAfter = aggregator.heapUsedAfterGc();
        String aggregatorHistogram = aggregator.classHistogram(12);
        // the prober's window runs without the aggregator: the prober is measured, not the machine's sharing
        aggregator.close();
        results.reset();
        KernelTcpCounters kernelBefore = KernelTcpCounters.read();
        long cpuBefore = prober.cpuNanos();
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(window.toNanos());
        long cpu = prober.cpuNanos() - cpuBefore;
        long elapsed = System.nanoTime() - start;
        ResultTap.Window w = results.window();
        ThroughputPhase.Figure load = new ThroughputPhase.Figure(Protocol.TCP, specs.size(), intervalMs, offered,
                w.results() * 1e9 / elapsed, (double) cpu / elapsed, w.failures(), w.failuresByOutcome(),
                LongSamples.percentile(w.lagMicrosSorted(), 50), LongSamples.percentile(w.lagMicrosSorted(), 99),
                LongSamples.percentile(w.lagMicrosSorted(), 100), elapsed / 1e9, Double.NaN,
                KernelTcpCounters.read().minus(kernelBefore), "");
        long proberAfter = prober.heapUsedAfterGc();
        Figure f = new Figure(specs.size(), proberBefore, proberAfter, aggregatorBefore, aggregatorAfter, load, caughtUp,
                prober.classHistogram(12), aggregatorHistogram);
        LOG.info("capacity {}", f);
        return f;
    }

    private static boolean awaitQuietly(Admin admin, String group, String topic) throws InterruptedException {
        try {
            return GroupLag.await(admin, group, topic, 0, Duration.ofSeconds(60));
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("cannot read the aggregator's lag on {}: {}", topic, e.toString());
            return false;
        }
    }
}
