package io.healthmesh.bench.run;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Target definitions pointing at the farm: {@code count} targets spread round robin over the farm's targets. */
public final class FarmSpecs {

    private FarmSpecs() {
    }

    /** Targets per group: a backend pool or listener of a realistic size (every change re-emits its group). */
    public static final int GROUP_SIZE = 100;

    /**
     * {@code count} definitions named {@code <prefix>-<n>}, target {@code n} probing farm target {@code n mod size}
     * (so several definitions may probe one listener when there are more definitions than listeners), in groups of
     * {@value #GROUP_SIZE} ({@code <prefix>-g<n / 100>}).
     */
    public static List<TargetSpec> over(List<FarmTarget> farm, int count, String prefix, int intervalMs, int timeoutMs,
                                        int healthyThreshold, int unhealthyThreshold) {
        return over(farm, count, prefix, intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold, GROUP_SIZE);
    }

    /** The same in groups of {@code groupSize} ({@code <prefix>-g<n / groupSize>}). */
    public static List<TargetSpec> over(List<FarmTarget> farm, int count, String prefix, int intervalMs, int timeoutMs,
                                        int healthyThreshold, int unhealthyThreshold, int groupSize) {
        if (groupSize < 1) {
            throw new IllegalArgumentException("groupSize: " + groupSize + " (expected: at least 1)");
        }
        if (farm.isEmpty()) {
            throw new IllegalArgumentException("farm: no target (expected: at least one)");
        }
        List<TargetSpec> specs = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            specs.add(spec(prefix + "-" + n, farm.get(n % farm.size()), intervalMs, timeoutMs, healthyThreshold,
                    unhealthyThreshold).withGroup(prefix + "-g" + n / groupSize));
        }
        return specs;
    }

    static TargetSpec spec(String id, FarmTarget target, int intervalMs, int timeoutMs, int healthy, int unhealthy) {
        TargetSpec spec = TargetSpec.of(id, "bench-" + target.protocol().name().toLowerCase(java.util.Locale.ROOT),
                        target.address(), target.port(), target.protocol())
                .withTiming(intervalMs, timeoutMs)
                .withThresholds(healthy, unhealthy);
        if (target.protocol() == Protocol.HTTP) {
            spec = spec.withHttp(new HttpSpec(HttpMethod.HEAD, target.path(), null, List.of("2xx"), false, Map.of(),
                    null, false));
        }
        return spec;
    }
}
