package io.healthmesh.bench.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings of the prober and the aggregator the fleet-scale benches start in child JVMs, in one place: the
 * stack's broker and registry, loopback only, no fixed port, a single copy of every topic.
 */
public final class WorkerSettings {

    /** The consumer group of a prober in the default region (it reads the targets topic in it). */
    public static final String PROBER_GROUP = "healthmesh-prober-default";

    private WorkerSettings() {
    }

    /**
     * A prober holding a whole fleet of loopback targets: the farm's addresses allowed, up to 10,000 probes in flight,
     * first probes spread over the whole interval ({@code jitter.fraction} 1), a 200,000-result buffer.
     */
    public static Map<String, String> fleetProber(BenchStack stack) {
        return fleetProber(stack, 0);
    }

    /** The same, serving HTTP on {@code httpPort} (0: any free port). */
    public static Map<String, String> fleetProber(BenchStack stack, int httpPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("bootstrap.servers", stack.bootstrapServers());
        settings.put("schema.registry.url", stack.registryUrl());
        settings.put("prober.id", "bench-prober");
        settings.put("allow.list", "127.0.0.0/8");
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", Integer.toString(httpPort));
        settings.put("max.in.flight", "10000");
        settings.put("jitter.fraction", "1.0");
        settings.put("buffer.capacity", "200000");
        return settings;
    }

    /** An aggregator with {@code group} as its application id and its local state in {@code stateDir}. */
    public static Map<String, String> aggregator(BenchStack stack, String group, Path stateDir) {
        return aggregator(stack, group, stateDir, 0);
    }

    /** The same, serving HTTP on {@code httpPort} (0: any free port). */
    public static Map<String, String> aggregator(BenchStack stack, String group, Path stateDir, int httpPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("bootstrap.servers", stack.bootstrapServers());
        settings.put("schema.registry.url", stack.registryUrl());
        settings.put("application.id", group);
        settings.put("state.dir", stateDir.toString());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", Integer.toString(httpPort));
        settings.put("replication.factor", "1");
        settings.put("replication.single.copy.allowed", "true");
        return settings;
    }
}
