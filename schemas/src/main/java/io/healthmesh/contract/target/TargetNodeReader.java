package io.healthmesh.contract.target;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.GrpcSpec;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.TlsSpec;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.core.target.Violation;
import io.healthmesh.schema.DnsCheck;
import io.healthmesh.schema.GrpcCheck;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TcpCheck;
import io.healthmesh.schema.TlsCheck;
import io.healthmesh.schema.UdpCheck;
import org.apache.avro.Schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns one target object of a file into a {@link TargetSpec}: the field names of the Avro contract (read from the
 * schemas of {@code TargetDefinition} and its sections), the defaults of the
 * target's {@code profile} (docs/PROFILES.md; GENERIC: SPEC section 5) for absent fields, unknown fields and wrong
 * types reported, never guessed. This is where a new definition's TLS verification default is applied
 * ({@link TlsVerification#verifiesWhenUnsaid}), so that {@code targets apply} stores it explicitly.
 */
final class TargetNodeReader {

    // the names of the contract's fields, in its order: a file is written with exactly these
    static final Set<String> TARGET_FIELDS = fieldNames(TargetDefinition.getClassSchema());
    static final Set<String> HTTP_FIELDS = fieldNames(HttpCheck.getClassSchema());
    static final Set<String> UDP_FIELDS = fieldNames(UdpCheck.getClassSchema());
    static final Set<String> TCP_FIELDS = fieldNames(TcpCheck.getClassSchema());
    static final Set<String> GRPC_FIELDS = fieldNames(GrpcCheck.getClassSchema());
    static final Set<String> TLS_FIELDS = fieldNames(TlsCheck.getClassSchema());
    static final Set<String> DNS_FIELDS = fieldNames(DnsCheck.getClassSchema());

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
        TargetProfile profile = f.enumValue("profile", TargetProfile.class, TargetProfile.GENERIC);
        // every absent field takes the profile's default (docs/PROFILES.md); GENERIC's are SPEC section 5's
        ProfileTable p = ProfileTable.of(profile);
        int healthy = f.integer("healthyThreshold", p.defaultHealthyThreshold());
        TlsSpec tls = tls(f.section("tls"));
        TargetSpec spec = new TargetSpec(
                f.string("id", null),
                f.string("group", TargetSpec.DEFAULT_GROUP),
                f.string("address", null),
                f.integer("port", protocol == Protocol.DNS ? DnsSpec.DEFAULT_PORT : TargetSpec.DEFAULT_PORT),
                protocol,
                f.integer("intervalMs", p.defaultIntervalMs()),
                f.integer("timeoutMs", p.defaultTimeoutMs()),
                healthy,
                // a product with one threshold for both directions (003) takes the healthy one when unset
                f.integer("unhealthyThreshold", p.oneThreshold() ? healthy : p.defaultUnhealthyThreshold()),
                f.bool("enabled", true),
                f.integer("weight", TargetSpec.DEFAULT_WEIGHT),
                f.stringMap("labels"),
                http(f.section("http"), p, TlsVerification.verifiesWhenUnsaid(protocol, profile,
                        tls.insecureSkipVerify())),
                udp(f.section("udp"), p),
                tcp(f.section("tcp")),
                f.strings("regions", List.of()),
                f.enumValue("quorum", QuorumPolicy.class, QuorumPolicy.MAJORITY),
                f.integer("quorumAtLeast", 1),
                profile,
                f.optionalInteger("fastIntervalMs"),
                f.optionalInteger("downIntervalMs"),
                grpc(f.section("grpc")),
                tls,
                dns(f.section("dns")),
                f.string("condition", null));
        if (spec.tlsVerification() == TlsVerification.OFF_BY_OLD_DEFAULT) {
            // only an explicit false reaches this state here: it is what stored records of the old default hold
            problems.add(new Violation("http.tlsVerify", "false (expected: true or absent: HTTPS verifies the"
                    + " certificate by default; to probe without verifying write tls: {insecureSkipVerify: true})"));
        }
        if (protocol != null) {
            // a section of another protocol would be dropped silently by the contract mapper: say so instead
            if (f.has("http") && !protocol.usesHttpSection()) {
                problems.add(misplaced("http", protocol, "HTTP or HTTPS"));
            }
            if (f.has("udp") && protocol != Protocol.UDP) {
                problems.add(misplaced("udp", protocol, "UDP"));
            }
            if (f.has("tcp") && protocol != Protocol.TCP) {
                problems.add(misplaced("tcp", protocol, "TCP"));
            }
            if (f.has("grpc") && protocol != Protocol.GRPC) {
                problems.add(misplaced("grpc", protocol, "GRPC"));
            }
            if (f.has("tls") && !protocol.mayUseTls()) {
                problems.add(misplaced("tls", protocol, "HTTPS or GRPC"));
            }
            if (f.has("dns") && protocol != Protocol.DNS) {
                problems.add(misplaced("dns", protocol, "DNS"));
            }
        }
        return new Read(spec, problems);
    }

    private static Set<String> fieldNames(Schema record) {
        Set<String> names = new LinkedHashSet<>();
        record.getFields().forEach(field -> names.add(field.name()));
        return Collections.unmodifiableSet(names);
    }

    private static Violation misplaced(String section, Protocol protocol, String expected) {
        return new Violation(section, "a section for protocol " + protocol + " (expected: only with protocol "
                + expected + ")");
    }

    /** The http section; {@code verifyWhenUnsaid} is {@code tlsVerify}'s default ({@link TlsVerification}). */
    private static HttpSpec http(TargetFields f, ProfileTable p, boolean verifyWhenUnsaid) {
        HttpSpec d = p.defaultHttp();
        if (f == null) {
            return verifyWhenUnsaid ? new HttpSpec(d.method(), d.path(), d.host(), d.expectedStatuses(),
                    d.followRedirects(), d.headers(), d.bodyContains(), true) : d;
        }
        f.rejectUnknown(HTTP_FIELDS);
        return new HttpSpec(
                f.enumValue("method", HttpMethod.class, d.method()),
                f.string("path", d.path()),
                f.string("host", d.host()),
                f.strings("expectedStatuses", d.expectedStatuses()),
                f.bool("followRedirects", d.followRedirects()),
                f.stringMap("headers"),
                f.string("bodyContains", d.bodyContains()),
                f.bool("tlsVerify", verifyWhenUnsaid));
    }

    private static UdpSpec udp(TargetFields f, ProfileTable p) {
        if (f == null) {
            return p.defaultUdp();
        }
        f.rejectUnknown(UDP_FIELDS);
        return new UdpSpec(f.enumValue("mode", UdpMode.class, p.defaultUdpMode()),
                f.string("request", null), f.string("expectedResponse", null), f.bool("hex", false),
                f.bool("exactMatch", false));
    }

    private static GrpcSpec grpc(TargetFields f) {
        if (f == null) {
            return GrpcSpec.DEFAULTS;
        }
        f.rejectUnknown(GRPC_FIELDS);
        return new GrpcSpec(f.string("service", ""), f.bool("tls", false));
    }

    private static TlsSpec tls(TargetFields f) {
        if (f == null) {
            return TlsSpec.DEFAULTS;
        }
        f.rejectUnknown(TLS_FIELDS);
        return new TlsSpec(f.bool("insecureSkipVerify", false), f.string("trustId", null),
                f.string("clientKeyId", null), f.integer("minCertDaysLeft", 0));
    }

    private static DnsSpec dns(TargetFields f) {
        if (f == null) {
            return null;
        }
        f.rejectUnknown(DNS_FIELDS);
        return new DnsSpec(f.string("name", null), f.enumValue("type", DnsRecordType.class, DnsRecordType.A),
                f.string("expectedRcode", DnsSpec.DEFAULT_RCODE).toUpperCase(java.util.Locale.ROOT),
                f.strings("expectedAnswers", List.of()),
                f.strings("answerPatterns", List.of()));
    }

    private static TcpSpec tcp(TargetFields f) {
        if (f == null) {
            return null;
        }
        f.rejectUnknown(TCP_FIELDS);
        return new TcpSpec(f.string("send", null), f.string("expect", null));
    }
}
