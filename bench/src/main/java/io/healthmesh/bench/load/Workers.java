package io.healthmesh.bench.load;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load driver's broker and worker JVMs: their flags, and how the prober and the aggregators are started with the
 * bench's settings under them.
 */
public final class Workers {

    /** The aggregators' application id (their consumer group), read for their lag. */
    public static final String AGGREGATOR_GROUP = "bench-aggregator";

    @Option(names = "--commit-interval-ms", defaultValue = "" + AggregatorConfig.DEFAULT_COMMIT_INTERVAL_MS,
            description = "The aggregators' commit.interval.ms (default: the product's, ${DEFAULT-VALUE}).")
    public long commitIntervalMs;
    @Option(names = "--prober-setting", description = "A prober setting (key=value, repeatable) on top of the "
            + "bench's own, e.g. transport=io_uring.")
    Map<String, String> proberSettings = new LinkedHashMap<>();
    @Option(names = "--aggregator-setting", description = "An aggregator setting (key=value, repeatable) on top of the "
            + "bench's own, e.g. commit.on.change=false.")
    Map<String, String> aggregatorSettings = new LinkedHashMap<>();
    @Option(names = "--broker-setting", description = "A setting (key=value, repeatable) of the driver's broker "
            + "(of each, with --brokers 3) on top of its own, e.g. add.partitions.to.txn.retry.backoff.ms=5.")
    public Map<String, String> brokerSettings = new LinkedHashMap<>();
    @Option(names = "--brokers", defaultValue = "1", description = "Brokers in the driver's JVM: 1 (default, every "
            + "figure of record) or 3, a cluster with every topic replicated to all three (min.insync.replicas 2) "
            + "and the aggregators' replication.factor 3 unless --aggregator-setting gives one. Three brokers share "
            + "the same cores: read latencies, not CPU ratios, from such a run.")
    public int brokers;
    @Option(names = "--child-jvm-option", description = "A JVM option (repeatable) for the prober and aggregator "
            + "JVMs, on top of the bench's own.")
    List<String> childJvmOptions = new ArrayList<>();
    @Option(names = "--jfr", description = "Record the prober and the aggregator with JFR into this directory.")
    public Path jfrDir;
    @Option(names = "--jitter-fraction", defaultValue = "1.0",
            description = "The prober's jitter.fraction (first starts spread over this share of the interval).")
    public double jitterFraction;
    @Option(names = "--prober-heap", defaultValue = "1g", description = "-Xmx and -Xms of the prober JVM.")
    String proberHeap;
    @Option(names = "--aggregator-heap", defaultValue = "1g", description = "-Xmx and -Xms of the aggregator JVM.")
    String aggregatorHeap;

    /** Refuses, by name, what a child JVM's start or the broker would refuse later. */
    public void validate() {
        Flags.inRange("--commit-interval-ms", commitIntervalMs, 10, 60_000);
        if (brokers != 1 && brokers != 3) {
            throw new IllegalArgumentException("--brokers must be 1 or 3, not " + brokers);
        }
    }

    /** The prober JVM, with the bench's settings under {@code --prober-setting}. */
    public ChildJvm startProber(BenchStack stack, Path work) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>(Map.of(
                "bootstrap.servers", stack.bootstrapServers(),
                "schema.registry.url", stack.registryUrl(),
                "prober.id", "bench-prober",
                "allow.list", "127.0.0.0/8", // the bench's backends listen on loopback, denied by default
                "http.host", "127.0.0.1",
                "http.port", "0",
                "max.in.flight", "10000",
                // first starts spread over the whole interval, as HAProxy spreads its checks: with the default 0.1
                // every fixed-rate target of one interval fires within its first tenth, a burst every interval
                "jitter.fraction", String.valueOf(jitterFraction),
                "buffer.capacity", "200000"));
        settings.putAll(proberSettings);
        return ChildJvm.start("prober", "prober", settings, proberHeap, jfr("prober.jfr"), work, childJvmOptions);
    }

    /** An aggregator JVM on the state directory {@code aggregator-state}, recorded when {@code --jfr} is given. */
    public ChildJvm startAggregator(BenchStack stack, Path work, String name) throws IOException {
        return startAggregator(stack, work, name, "aggregator-state", true);
    }

    /**
     * An aggregator JVM named {@code name} on the state directory {@code stateDir} of {@code work}, with the bench's
     * settings under {@code --aggregator-setting}; recorded by JFR when {@code record} and {@code --jfr}.
     */
    public ChildJvm startAggregator(BenchStack stack, Path work, String name, String stateDir, boolean record)
            throws IOException {
        Map<String, String> settings = new LinkedHashMap<>(Map.of(
                "bootstrap.servers", stack.bootstrapServers(),
                "schema.registry.url", stack.registryUrl(),
                "application.id", AGGREGATOR_GROUP,
                "state.dir", work.resolve(stateDir).toString(),
                "http.host", "127.0.0.1",
                "http.port", "0",
                "commit.interval.ms", Long.toString(commitIntervalMs),
                "replication.factor", Integer.toString(stack.brokerCount()),
                "replication.single.copy.allowed", Boolean.toString(stack.brokerCount() == 1)));
        settings.putAll(aggregatorSettings);
        return ChildJvm.start(name, "aggregator", settings, aggregatorHeap, record ? jfr(name + ".jfr") : null, work,
                childJvmOptions);
    }

    /** Threads per aggregator instance: {@code --aggregator-setting kafka.num.stream.threads=N}, or Streams' 1. */
    int aggregatorStreamThreads() {
        String set = aggregatorSettings.get("kafka.num.stream.threads");
        if (set != null) {
            try {
                return Math.max(1, Integer.parseInt(set.trim()));
            } catch (NumberFormatException e) {
                // the aggregator refuses to start with it; the figures say so
            }
        }
        return 1;
    }

    private Path jfr(String file) {
        return jfrDir == null ? null : jfrDir.toAbsolutePath().resolve(file);
    }
}
