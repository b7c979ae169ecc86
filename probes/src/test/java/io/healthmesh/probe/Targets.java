package io.healthmesh.probe;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;

import java.util.List;
import java.util.Map;

/** Target specs for tests: loopback only, with short timeouts. */
public final class Targets {

    /** Timeout for probes expected to succeed: long enough for a cold JVM on a loaded machine. */
    public static final int GENEROUS_MS = 10_000;
    /** How late after its deadline a probe may end on a loaded machine; far below what a hostile server tries. */
    public static final int DEADLINE_SLACK_MS = 3_000;

    private Targets() {
    }

    public static TargetSpec target(Protocol protocol, String address, int port, int timeoutMs) {
        return TargetSpec.of("t-" + protocol.name().toLowerCase() + "-" + port, "g", address, port, protocol)
                .withTiming(Math.max(timeoutMs, 1000), timeoutMs);
    }

    public static TargetSpec tcp(int port, int timeoutMs) {
        return target(Protocol.TCP, "127.0.0.1", port, timeoutMs);
    }

    public static TargetSpec http(int port, int timeoutMs) {
        return target(Protocol.HTTP, "127.0.0.1", port, timeoutMs);
    }

    public static HttpSpec get(String path, String bodyContains) {
        return new HttpSpec(HttpMethod.GET, path, null, List.of("2xx"), false, Map.of(), bodyContains, false);
    }
}
