package io.healthmesh.contract.target;

import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.GrpcSpec;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.TlsSpec;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.contract.serde.AvroBytes;
import io.healthmesh.schema.DnsCheck;
import io.healthmesh.schema.GrpcCheck;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TcpCheck;
import io.healthmesh.schema.TlsCheck;
import io.healthmesh.schema.UdpCheck;

import org.apache.avro.specific.SpecificDatumWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;

import static java.util.Objects.requireNonNull;

/** Maps the Avro contract's {@link TargetDefinition} to the domain's {@link TargetSpec} and back. */
public final class TargetSpecs {

    private TargetSpecs() {
    }

    /** The domain view of a definition, with the defaults of absent sections applied. */
    public static TargetSpec fromAvro(TargetDefinition d) {
        requireNonNull(d, "definition");
        return new TargetSpec(d.getId(), d.getGroup(), d.getAddress(), d.getPort(),
                Protocol.valueOf(d.getProtocol().name()), d.getIntervalMs(), d.getTimeoutMs(),
                d.getHealthyThreshold(), d.getUnhealthyThreshold(), d.getEnabled(), d.getWeight(),
                d.getLabels(), http(d.getHttp()), udp(d.getUdp()), tcp(d.getTcp()), d.getRegions(),
                QuorumPolicy.valueOf(d.getQuorum().name()), d.getQuorumAtLeast(),
                TargetProfile.valueOf(d.getProfile().name()), d.getFastIntervalMs(), d.getDownIntervalMs(),
                grpc(d.getGrpc()), tls(d.getTls()), dns(d.getDns()),
                d.getCondition());
    }

    /** Writers of the generated record's own schema, one per thread (a datum writer caches per-schema state). */
    private static final ThreadLocal<SpecificDatumWriter<TargetDefinition>> WRITER =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(TargetDefinition.class));

    /** The Confluent header's size: a magic byte and the 4-byte schema id, in front of every encoded body. */
    private static final int WIRE_HEADER_BYTES = 5;
    /** The body alone: {@link #encode} writes no header. */
    private static final byte[] NO_HEADER = {};

    /**
     * Whether a stored definition's probe verifies TLS, and why, read from the few fields that decide it without
     * mapping the whole record (the status page does this for every definition it reads).
     */
    public static TlsVerification tlsVerification(TargetDefinition d) {
        requireNonNull(d, "definition");
        return TlsVerification.of(Protocol.valueOf(d.getProtocol().name()),
                TargetProfile.valueOf(d.getProfile().name()), d.getGrpc() != null && d.getGrpc().getTls(),
                d.getHttp() != null && d.getHttp().getTlsVerify(),
                d.getTls() != null && d.getTls().getInsecureSkipVerify());
    }

    /**
     * Bytes a definition of {@code spec} takes on the targets topic: the 5-byte Confluent header plus the Avro
     * binary body. Compared with {@code Limits.MAX_DEFINITION_BYTES} by {@code targets apply}, so a definition
     * the CLI writes is never refused by the workers for its size.
     */
    public static int encodedSize(TargetSpec spec) {
        return encodedSize(encode(spec));
    }

    /** What a definition whose Avro body is {@code body} takes on the targets topic, the header included. */
    public static int encodedSize(byte[] body) {
        return WIRE_HEADER_BYTES + body.length;
    }

    /**
     * The Avro binary body of {@code spec}'s definition under the generated record's own schema, without the wire
     * header: what {@code targets apply} checks for size and then writes, so each definition is encoded once.
     * Encoding the spec read back from these bytes gives the same bytes.
     */
    public static byte[] encode(TargetSpec spec) {
        TargetDefinition definition = toAvro(spec);
        try {
            return AvroBytes.write(NO_HEADER, WRITER.get(), definition);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory stream does not fail
        }
    }

    /** The Avro record of a spec; every section is written out, so the record is self-describing. */
    public static TargetDefinition toAvro(TargetSpec s) {
        requireNonNull(s, "spec");
        return TargetDefinition.newBuilder()
                .setId(s.id())
                .setGroup(s.group())
                .setAddress(s.address())
                .setPort(s.port())
                .setProtocol(io.healthmesh.schema.Protocol.valueOf(s.protocol().name()))
                .setIntervalMs(s.intervalMs())
                .setTimeoutMs(s.timeoutMs())
                .setHealthyThreshold(s.healthyThreshold())
                .setUnhealthyThreshold(s.unhealthyThreshold())
                .setEnabled(s.enabled())
                .setWeight(s.weight())
                .setLabels(new LinkedHashMap<>(s.labels()))
                .setHttp(s.protocol().usesHttpSection() ? HttpCheck.newBuilder()
                        .setMethod(io.healthmesh.schema.HttpMethod.valueOf(s.http().method().name()))
                        .setPath(s.http().path())
                        .setHost(s.http().host())
                        .setExpectedStatuses(new ArrayList<>(s.http().expectedStatuses()))
                        .setFollowRedirects(s.http().followRedirects())
                        .setHeaders(new LinkedHashMap<>(s.http().headers()))
                        .setBodyContains(s.http().bodyContains())
                        .setTlsVerify(s.http().tlsVerify())
                        .build() : null)
                .setUdp(s.protocol() == Protocol.UDP ? UdpCheck.newBuilder()
                        .setMode(io.healthmesh.schema.UdpMode.valueOf(s.udp().mode().name()))
                        .setRequest(s.udp().request())
                        .setExpectedResponse(s.udp().expectedResponse())
                        .setHex(s.udp().hex())
                        .setExactMatch(s.udp().exactMatch())
                        .build() : null)
                .setTcp(s.protocol() == Protocol.TCP && s.tcp().hasPayload()
                        ? TcpCheck.newBuilder().setSend(s.tcp().send()).setExpect(s.tcp().expect()).build()
                        : null)
                .setRegions(new ArrayList<>(s.regions()))
                .setQuorum(io.healthmesh.schema.QuorumPolicy.valueOf(s.quorum().name()))
                .setQuorumAtLeast(s.quorumAtLeast())
                .setProfile(io.healthmesh.schema.TargetProfile.valueOf(s.profile().name()))
                .setFastIntervalMs(s.fastIntervalMs())
                .setDownIntervalMs(s.downIntervalMs())
                .setGrpc(s.protocol() == Protocol.GRPC && !s.grpc().equals(GrpcSpec.DEFAULTS) ? GrpcCheck.newBuilder()
                        .setService(s.grpc().service())
                        .setTls(s.grpc().tls())
                        .build() : null)
                .setTls(s.protocol().mayUseTls() && !s.tls().equals(TlsSpec.DEFAULTS) ? TlsCheck.newBuilder()
                        .setInsecureSkipVerify(s.tls().insecureSkipVerify())
                        .setTrustId(s.tls().trustId())
                        .setClientKeyId(s.tls().clientKeyId())
                        .setMinCertDaysLeft(s.tls().minCertDaysLeft())
                        .build() : null)
                .setDns(s.protocol() == Protocol.DNS ? DnsCheck.newBuilder()
                        .setName(s.dns().name() == null ? "" : s.dns().name())
                        .setType(s.dns().type().name())
                        .setExpectedRcode(s.dns().expectedRcode())
                        .setExpectedAnswers(new ArrayList<>(s.dns().expectedAnswers()))
                        .setAnswerPatterns(new ArrayList<>(s.dns().answerPatterns()))
                        .build() : null)
                .setCondition(s.condition())
                .build();
    }

    private static HttpSpec http(HttpCheck h) {
        if (h == null) {
            return HttpSpec.DEFAULTS;
        }
        return new HttpSpec(HttpMethod.valueOf(h.getMethod().name()), h.getPath(), h.getHost(),
                h.getExpectedStatuses(), h.getFollowRedirects(), h.getHeaders(), h.getBodyContains(),
                h.getTlsVerify());
    }

    private static GrpcSpec grpc(GrpcCheck g) {
        return g == null ? GrpcSpec.DEFAULTS : new GrpcSpec(g.getService(), g.getTls());
    }

    private static TlsSpec tls(TlsCheck t) {
        return t == null ? TlsSpec.DEFAULTS
                : new TlsSpec(t.getInsecureSkipVerify(), t.getTrustId(), t.getClientKeyId(), t.getMinCertDaysLeft());
    }

    private static UdpSpec udp(UdpCheck u) {
        return u == null ? UdpSpec.DEFAULTS
                : new UdpSpec(UdpMode.valueOf(u.getMode().name()), u.getRequest(), u.getExpectedResponse(),
                        u.getHex(), u.getExactMatch());
    }

    /** A type this version does not know is refused with the validator's message shape, never guessed. */
    private static DnsSpec dns(DnsCheck d) {
        if (d == null) {
            return DnsSpec.DEFAULTS;
        }
        DnsRecordType type;
        try {
            type = DnsRecordType.valueOf(d.getType());
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("dns.type: \"" + d.getType().replaceAll("\\p{Cntrl}", "?")
                    + "\" (expected: one of " + java.util.Arrays.toString(DnsRecordType.values()) + ")");
        }
        return new DnsSpec(d.getName(), type, d.getExpectedRcode(), d.getExpectedAnswers(), d.getAnswerPatterns());
    }

    private static TcpSpec tcp(TcpCheck t) {
        return t == null ? TcpSpec.CONNECT_ONLY : new TcpSpec(t.getSend(), t.getExpect());
    }
}
