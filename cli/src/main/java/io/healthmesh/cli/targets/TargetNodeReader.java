package io.healthmesh.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.core.target.Violation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns one target object of a file into a {@link TargetSpec}: field names as in the Avro contract
 * ({@code TargetDefinition}, {@code HttpCheck}, {@code UdpCheck}, {@code TcpCheck}), the contract's defaults
 * (SPEC section 5) for absent fields, unknown fields and wrong types reported, never guessed.
 */
final class TargetNodeReader {

    static final Set<String> TARGET_FIELDS = new LinkedHashSet<>(List.of("id", "group", "address", "port",
            "protocol", "intervalMs", "timeoutMs", "healthyThreshold", "unhealthyThreshold", "enabled", "weight",
            "labels", "http", "udp", "tcp", "regions", "quorum", "quorumAtLeast"));
    static final Set<String> HTTP_FIELDS = new LinkedHashSet<>(List.of("method", "path", "host",
            "expectedStatuses", "followRedirects", "headers", "bodyContains", "tlsVerify"));
    static final Set<String> UDP_FIELDS = new LinkedHashSet<>(List.of("mode", "request", "expectedResponse"));
    static final Set<String> TCP_FIELDS = new LinkedHashSet<>(List.of("send", "expect"));

    private TargetNodeReader() {
    }

    /** The spec read from {@code node} and what was wrong with it (parse-level only; see the validator). */
    record Read(TargetSpec spec, List<Violation> problems) {
    }

    static Read read(JsonNode node) {
        List<Violation> problems = new ArrayList<>();
        TargetFields f = new TargetFields("", node, problems);
        f.rejectUnknown(TARGET_FIELDS);
        Protocol protocol = f.enumValue("protocol", Protocol.class, null);
        TargetSpec spec = new TargetSpec(
                f.string("id", null),
                f.string("group", TargetSpec.DEFAULT_GROUP),
                f.string("address", null),
                f.integer("port", TargetSpec.DEFAULT_PORT),
                protocol,
                f.integer("intervalMs", TargetSpec.DEFAULT_INTERVAL_MS),
                f.integer("timeoutMs", TargetSpec.DEFAULT_TIMEOUT_MS),
                f.integer("healthyThreshold", TargetSpec.DEFAULT_HEALTHY_THRESHOLD),
                f.integer("unhealthyThreshold", TargetSpec.DEFAULT_UNHEALTHY_THRESHOLD),
                f.bool("enabled", true),
                f.integer("weight", TargetSpec.DEFAULT_WEIGHT),
                f.stringMap("labels"),
                http(f.section("http")),
                udp(f.section("udp")),
                tcp(f.section("tcp")),
                f.strings("regions", List.of()),
                f.enumValue("quorum", QuorumPolicy.class, QuorumPolicy.MAJORITY),
                f.integer("quorumAtLeast", 1));
        if (protocol != null) {
            // a section of another protocol would be dropped silently by the contract mapper: say so instead
            if (f.has("http") && !protocol.isLayer7()) {
                problems.add(misplaced("http", protocol, "HTTP or HTTPS"));
            }
            if (f.has("udp") && protocol != Protocol.UDP) {
                problems.add(misplaced("udp", protocol, "UDP"));
            }
            if (f.has("tcp") && protocol != Protocol.TCP) {
                problems.add(misplaced("tcp", protocol, "TCP"));
            }
        }
        return new Read(spec, problems);
    }

    private static Violation misplaced(String section, Protocol protocol, String expected) {
        return new Violation(section, "a section for protocol " + protocol + " (expected: only with protocol "
                + expected + ")");
    }

    private static HttpSpec http(TargetFields f) {
        if (f == null) {
            return null;
        }
        f.rejectUnknown(HTTP_FIELDS);
        HttpSpec d = HttpSpec.DEFAULTS;
        return new HttpSpec(
                f.enumValue("method", HttpMethod.class, d.method()),
                f.string("path", d.path()),
                f.string("host", d.host()),
                f.strings("expectedStatuses", d.expectedStatuses()),
                f.bool("followRedirects", d.followRedirects()),
                f.stringMap("headers"),
                f.string("bodyContains", d.bodyContains()),
                f.bool("tlsVerify", d.tlsVerify()));
    }

    private static UdpSpec udp(TargetFields f) {
        if (f == null) {
            return null;
        }
        f.rejectUnknown(UDP_FIELDS);
        return new UdpSpec(f.enumValue("mode", UdpMode.class, UdpSpec.DEFAULTS.mode()),
                f.string("request", null), f.string("expectedResponse", null));
    }

    private static TcpSpec tcp(TargetFields f) {
        if (f == null) {
            return null;
        }
        f.rejectUnknown(TCP_FIELDS);
        return new TcpSpec(f.string("send", null), f.string("expect", null));
    }
}
