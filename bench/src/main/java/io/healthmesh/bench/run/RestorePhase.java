package io.healthmesh.bench.run;

import io.healthmesh.aggregator.topology.AggregatorTopology;
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
import java.util.stream.Stream;

/**
 * The aggregator holding the state of many targets: {@code targets} definitions (and, unless told otherwise, one
 * result each) are loaded, one aggregator instance consumes them (definitions per second, time to ready, RSS, heap
 * after a full collection, size of its local state); it is stopped, and started twice more: with its local state kept
 * (a restart), and with its state directory deleted, so that every store is restored from its changelog (a new
 * machine).
 *
 * <p>Ready means: state restored and results judged again. Before every start one result per 1,000 targets is
 * produced after everything else; a start is ready when the group has no lag on the targets, the results and the
 * repartition by group. A partition's records are processed only once its stores are restored, and a task takes its
 * records in timestamp order, so the last results are judged after every definition before them.
 */
public final class RestorePhase {

    private static final Logger LOG = LoggerFactory.getLogger(RestorePhase.class);
    private static final long PATIENCE_MINUTES = 30;
    /** One marker result per this many targets before every start. */
    private static final int MARKER_EVERY = 1_000;

    /**
     * One start of the aggregator: seconds to no lag on the definitions (NaN where there was none to consume, infinite
     * where they were not all consumed within the bound) and to ready, resident memory and live heap then (-1 where not read), local state size then.
     */
    public record Start(String kind, double definitionsSeconds, double seconds, long rssBytes, long heapBytes,
                        long stateBytes, boolean finished, String histogram) {
    }

    public record Figure(int targets, double loadSeconds, long definitions, List<Start> starts) {

        /** Definitions per second of the first start, NaN when it did not consume them all. */
        public double definitionsPerSecond() {
            double seconds = starts.get(0).definitionsSeconds();
            return Double.isInfinite(seconds) ? Double.NaN : definitions / seconds;
        }
    }

    /** Starts the aggregator on the phase's state directory; {@code jfr} is a recording to write, or null. */
    @FunctionalInterface
    public interface Starter {
        ChildJvm start(Path jfr) throws IOException;
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
     * @param preloadResults whether one result per target is produced before the first start, besides the markers
     * @param firstStartJfr  a JFR recording of the first start, or null; when given, the restart and the start on an
     *                       empty state are recorded beside it ({@code -restart.jfr}, {@code -empty.jfr})
     */
    public static Figure run(BenchStack stack, TargetLoader loader, List<TargetSpec> specs, String group,
                             Path stateDir, Starter starter, boolean preloadResults, Path firstStartJfr)
            throws Exception {
        long t0 = System.nanoTime();
        int batch = 100_000;
        for (int from = 0; from < specs.size(); from += batch) {
            loader.apply(specs.subList(from, Math.min(specs.size(), from + batch)));
            LOG.info("restore phase: {} of {} definitions applied", Math.min(specs.size(), from + batch), specs.size());
        }
        if (preloadResults) {
            AggregatorThroughputPhase.produce(stack, specs, specs.size());
        }
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        List<TargetSpec> marker = new ArrayList<>();
        for (int i = 0; i < specs.size(); i += MARKER_EVERY) {
            marker.add(specs.get(i));
        }
        Lags lags = new Lags(stack, group);
        long definitions = lags.definitions();
        List<Start> starts = new ArrayList<>();
        starts.add(timedStart("first start: consumes every definition" + (preloadResults ? " and result" : ""),
                stack, lags, stateDir, () -> starter.start(firstStartJfr), marker));
        starts.add(timedStart("restart with its local state", stack, lags, stateDir,
                () -> starter.start(beside(firstStartJfr, "-restart.jfr")), marker));
        WorkFiles.deleteTree(stateDir);
        starts.add(timedStart("start on an empty state directory: every store restored from its changelog", stack,
                lags, stateDir, () -> starter.start(beside(firstStartJfr, "-empty.jfr")), marker));
        return new Figure(specs.size(), loadSeconds, definitions, starts);
    }

    /** {@code recording} with its {@code .jfr} replaced by {@code suffix}; null for null. */
    static Path beside(Path recording, String suffix) {
        if (recording == null) {
            return null;
        }
        String name = recording.getFileName().toString();
        String base = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return recording.resolveSibling(base + suffix);
    }

    private interface Launch {
        ChildJvm start() throws IOException;
    }

    private static Start timedStart(String kind, BenchStack stack, Lags lags, Path stateDir, Launch launch,
                                    List<TargetSpec> marker) throws Exception {
        AggregatorThroughputPhase.produce(stack, marker, marker.size());
        long definitionsAtStart = lags.definitions();
        long start = System.nanoTime();
        try (ChildJvm aggregator = launch.start()) {
            long deadline = start + TimeUnit.MINUTES.toNanos(PATIENCE_MINUTES);
            long lastReport = start;
            double definitionsSeconds = definitionsAtStart == 0 ? Double.NaN : -1;
            while (System.nanoTime() < deadline) {
                long definitions = lags.definitions();
                long now = System.nanoTime();
                double elapsed = (now - start) / 1e9;
                if (definitions == 0 && definitionsSeconds < 0) {
                    definitionsSeconds = elapsed;
                    LOG.info("restore phase: {}: every definition consumed after {} s", kind, elapsed);
                }
                long results = lags.results();
                if (definitions == 0 && results == 0 && lags.repartition() == 0) {
                    long rss = rss(aggregator.pid());
                    String histogram = aggregator.classHistogram(15);
                    long heap = aggregator.heapUsedAfterGc();
                    Start s = new Start(kind, definitionsSeconds, elapsed, rss, heap, size(stateDir), true,
                            histogram);
                    LOG.info("restore phase: {}", s);
                    return s;
                }
                if (!aggregator.isAlive()) {
                    throw new IllegalStateException("the aggregator stopped during \"" + kind + "\"");
                }
                if (now - lastReport > TimeUnit.SECONDS.toNanos(10)) {
                    LOG.info("restore phase: {}: after {} s: {} definitions consumed ({} to go), {} results to go,"
                                    + " RSS {} MiB", kind, Math.round(elapsed), definitionsAtStart - definitions,
                            definitions, results, rss(aggregator.pid()) >> 20);
                    lastReport = now;
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            return new Start(kind, definitionsSeconds < 0 ? Double.POSITIVE_INFINITY : definitionsSeconds, Double.NaN,
                    rss(aggregator.pid()), -1, size(stateDir), false, "");
        }
    }

    /** The aggregator group's lag on its inputs, from its committed offsets. */
    private record Lags(BenchStack stack, String group) {

        long definitions() throws Exception {
            return GroupLag.lag(stack.admin(), group, stack.topics().targets());
        }

        long results() throws Exception {
            return GroupLag.lag(stack.admin(), group, stack.topics().probeResults());
        }

        /** Membership changes not yet read back by the group processor (0 before the topic exists). */
        long repartition() throws Exception {
            String topic = group + "-" + AggregatorTopology.GROUP_REPARTITION + "-repartition";
            if (!stack.admin().listTopics().names().get(10, TimeUnit.SECONDS).contains(topic)) {
                return 0;
            }
            return GroupLag.lag(stack.admin(), group, topic);
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
