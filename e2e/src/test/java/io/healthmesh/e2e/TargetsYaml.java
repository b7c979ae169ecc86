package io.healthmesh.e2e;

import java.util.List;

/** Target definitions for the CLI's {@code targets apply -f}, in its YAML format (field names of the Avro contract). */
final class TargetsYaml {

    /** UDP payload the echo backend sends back. */
    static final String UDP_PAYLOAD = "healthmesh-e2e-ping";

    /**
     * One target on one backend.
     *
     * @param intervalMs probe interval; the timeout is half of it, the thresholds are 2 and 2
     * @param regions the regions that probe it; empty means every region
     */
    record Target(String id, String group, Backend backend, String address, int intervalMs, List<String> regions) {
    }

    private TargetsYaml() {
    }

    static String of(List<Target> targets) {
        StringBuilder y = new StringBuilder("targets:\n");
        for (Target t : targets) {
            y.append("  - id: ").append(t.id()).append('\n')
                    .append("    group: ").append(t.group()).append('\n')
                    .append("    address: ").append(t.address()).append('\n')
                    .append("    port: ").append(t.backend().kind.port).append('\n')
                    .append("    protocol: ").append(protocol(t.backend().kind)).append('\n')
                    .append("    intervalMs: ").append(t.intervalMs()).append('\n')
                    .append("    timeoutMs: ").append(t.intervalMs() / 2).append('\n')
                    .append("    healthyThreshold: 2\n")
                    .append("    unhealthyThreshold: 2\n");
            if (!t.regions().isEmpty()) {
                y.append("    regions: [").append(String.join(", ", t.regions())).append("]\n");
            }
            switch (t.backend().kind) {
                case HTTP -> y.append("    http:\n      method: GET\n      path: /healthz\n");
                case UDP_ECHO -> y.append("    udp:\n      mode: PAYLOAD\n      request: ").append(UDP_PAYLOAD)
                        .append("\n      expectedResponse: ").append(UDP_PAYLOAD).append('\n');
                case TCP -> { }
                default -> throw new IllegalArgumentException("kind: " + t.backend().kind);
            }
        }
        return y.toString();
    }

    private static String protocol(Backend.Kind kind) {
        return switch (kind) {
            case HTTP -> "HTTP";
            case TCP -> "TCP";
            case UDP_ECHO -> "UDP";
        };
    }
}
