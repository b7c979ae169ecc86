package io.healthmesh.bench.run;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The aggregator holding the state of many targets: {@code targets} definitions and one result each are loaded, one
 * aggregator instance consumes them (ingest time, RSS, size of its local state); it is stopped, and started twice
 * more: with its local state kept (a restart), and with its state directory deleted, so that every store is restored
 * from its changelog (a new machine). A restart is timed from the process start to no lag on the results topic after
 * one more result per 1,000 targets was produced: a partition's records are processed only once its stores are
 * restored, so that instant is when the instance judges results again.
 */
public final class RestorePhase {

    private static final Logger LOG = LoggerFactory.getLogger(RestorePhase.class);
    private static final long PATIENCE_MINUTES = 30;

    /** One start of the aggregator: seconds to no lag, resident memory then, local state size then. */
    public record Start(String kind, double seconds, long rssBytes, long stateBytes, boolean finished) {
    }

    public record Figure(int targets, double loadSeconds, List<Start> starts) {
    }

    private RestorePhase() {
    }

    /** Definitions for {@code count} TCP targets in groups of {@link FarmSpecs#GROUP_SIZE} (never probed here). */
    public static List<TargetSpec> specs(int count) {
        List<TargetSpec> specs = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            specs.add(TargetSpec.of("r-" + n, "r-g" + n / FarmSpecs.GROUP_SIZE, "192.0.2." + (1 + n % 250),
                    80, Protocol.TCP).withTiming(10_000, 1_000));
        }
        return specs;
    }

    /**
     * @param startAggregator starts an instance of the aggregator on {@code stateDir}
     */
    public static Figure run(BenchStack stack, TargetLoader loader, List<TargetSpec> specs, String group,
                             Path stateDir, Supplier<ChildJvm> startAggregator) throws Exception {
        long t0 = System.nanoTime();
        int batch = 100_000;
        for (int from = 0; from < specs.size(); from += batch) {
            loader.apply(specs.subList(from, Math.min(specs.size(), from + batch)));
            LOG.info("restore phase: {} of {} definitions applied", Math.min(specs.size(), from + batch), specs.size());
        }
        AggregatorThroughputPhase.produce(stack, specs, specs.size());
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        List<Start> starts = new ArrayList<>();
        starts.add(timedStart("first start: consumes every definition and result", stack, group, stateDir,
                startAggregator, List.of()));
        List<TargetSpec> marker = new ArrayList<>();
        for (int i = 0; i < specs.size(); i += 1_000) {
            marker.add(specs.get(i));
        }
        starts.add(timedStart("restart with its local state", stack, group, stateDir, startAggregator, marker));
        WorkFiles.deleteTree(stateDir);
        starts.add(timedStart("start on an empty state directory: every store restored from its changelog", stack,
                group, stateDir, startAggregator, marker));
        return new Figure(specs.size(), loadSeconds, starts);
    }

    private static Start timedStart(String kind, BenchStack stack, String group, Path stateDir,
                                    Supplier<ChildJvm> startAggregator, List<TargetSpec> marker) throws Exception {
        if (!marker.isEmpty()) {
            AggregatorThroughputPhase.produce(stack, marker, marker.size());
        }
        String topic = stack.topics().probeResults();
        long start = System.nanoTime();
        try (ChildJvm aggregator = startAggregator.get()) {
            long deadline = start + TimeUnit.MINUTES.toNanos(PATIENCE_MINUTES);
            long lastReport = start;
            while (System.nanoTime() < deadline) {
                long lag = GroupLag.lag(stack.admin(), group, topic);
                long now = System.nanoTime();
                if (lag == 0) {
                    Start s = new Start(kind, (now - start) / 1e9, rss(aggregator.pid()), size(stateDir), true);
                    LOG.info("restore phase: {}", s);
                    return s;
                }
                if (!aggregator.isAlive()) {
                    throw new IllegalStateException("the aggregator stopped during \"" + kind + "\"");
                }
                if (now - lastReport > TimeUnit.SECONDS.toNanos(10)) {
                    LOG.info("restore phase: {}: {} results to go after {} s", kind, lag, (now - start) / 1_000_000_000);
                    lastReport = now;
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            return new Start(kind, Double.NaN, rss(aggregator.pid()), size(stateDir), false);
        }
    }

    /** Resident memory of a process ({@code VmRSS} of {@code /proc/<pid>/status}); -1 where not readable. */
    static long rss(long pid) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
            return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).orElse(-1L);
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    static long size(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;   // a RocksDB file removed while walking
                }
            }).sum();
        }
    }
}
