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
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.UdpCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seam between the Avro contract and the domain: defaults are declared twice (the .avsc files for producers in
 * any language, {@link TargetSpec} and its sections for the code), so a test ties them together; and a spec survives
 * the trip through Avro unchanged, for every protocol.
 */
class TargetSpecsTest {

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void avroDefaultsAreTheDomainDefaults(Protocol protocol) {
        // only the fields without a default in the schema are set: everything else comes from the .avsc defaults
        TargetDefinition minimal = TargetDefinition.newBuilder()
                .setId("t-1")
                .setAddress("10.0.0.1")
                .setProtocol(io.healthmesh.schema.Protocol.valueOf(protocol.name()))
                .build();

        TargetSpec fromAvro = TargetSpecs.fromAvro(minimal);

        assertThat(fromAvro).isEqualTo(TargetSpec.of("t-1", TargetSpec.DEFAULT_GROUP, "10.0.0.1",
                TargetSpec.DEFAULT_PORT, protocol));
    }

    @Test
    void avroSectionDefaultsAreTheDomainSectionDefaults() {
        HttpCheck http = HttpCheck.newBuilder().build();
        UdpCheck udp = UdpCheck.newBuilder().build();

        TargetDefinition withEmptySections = TargetDefinition.newBuilder()
                .setId("t-1").setAddress("10.0.0.1").setProtocol(io.healthmesh.schema.Protocol.HTTP)
                .setHttp(http).setUdp(udp).build();
        TargetSpec spec = TargetSpecs.fromAvro(withEmptySections);

        assertThat(spec.http()).isEqualTo(HttpSpec.DEFAULTS);
        assertThat(spec.udp()).isEqualTo(UdpSpec.DEFAULTS);
    }

    @Test
    void theBytesOfASpecAreTheBytesOfWhatReadsBackFromThem() {
        // apply checks and writes the bytes of the spec as read from the file: the topic must then hold exactly
        // what the spec reads back as, for every example of every protocol
        TargetFileReader.Batch examples = TargetFileReader.read(List.of(java.nio.file.Path.of("..", "examples",
                "targets.yaml")), new java.io.ByteArrayInputStream(new byte[0]));
        assertThat(examples.errors()).isEmpty();
        for (TargetSpec spec : examples.specs()) {
            byte[] bytes = TargetSpecs.encode(spec);
            TargetSpec readBack = TargetSpecs.fromAvro(TargetSpecs.toAvro(spec));
            assertThat(TargetSpecs.encode(readBack)).as(spec.id()).isEqualTo(bytes);
            assertThat(TargetSpecs.encodedSize(spec)).isEqualTo(5 + bytes.length);
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void aSpecSurvivesTheTripThroughAvro(Protocol protocol) {
        TargetSpec spec = everyFieldSet(protocol);

        TargetDefinition avro = TargetSpecs.toAvro(spec);

        assertThat(TargetSpecs.fromAvro(avro)).isEqualTo(spec);
        assertThat(TargetSpecs.toAvro(TargetSpecs.fromAvro(avro))).isEqualTo(avro);
    }

    @Test
    void everyDomainEnumHasItsContractTwin() {
        assertThat(names(Protocol.values())).isEqualTo(names(io.healthmesh.schema.Protocol.values()));
        assertThat(names(HttpMethod.values())).isEqualTo(names(io.healthmesh.schema.HttpMethod.values()));
        assertThat(names(UdpMode.values())).isEqualTo(names(io.healthmesh.schema.UdpMode.values()));
        assertThat(names(QuorumPolicy.values())).isEqualTo(names(io.healthmesh.schema.QuorumPolicy.values()));
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }

    /** A spec where no field has its default, so a field the mapper forgets shows up as a difference. */
    private static TargetSpec everyFieldSet(Protocol protocol) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Probe", "healthmesh");
        headers.put("Accept", "text/plain");
        HttpSpec http = protocol.usesHttpSection()
                ? new HttpSpec(HttpMethod.GET, "/health/deep", "api.example.com", List.of("2xx", "301"), true, headers,
                "ok", true)
                : HttpSpec.DEFAULTS;
        UdpSpec udp = protocol == Protocol.UDP ? new UdpSpec(UdpMode.PAYLOAD, "ping", "pong") : UdpSpec.DEFAULTS;
        TcpSpec tcp = protocol == Protocol.TCP ? new TcpSpec("HELLO\r\n", "+OK") : TcpSpec.CONNECT_ONLY;
        GrpcSpec grpc = protocol == Protocol.GRPC ? new GrpcSpec("pkg.Api", true) : GrpcSpec.DEFAULTS;
        TlsSpec tls = protocol.mayUseTls() ? new TlsSpec(false, "internal-ca", "probe-1", 14) : TlsSpec.DEFAULTS;
        DnsSpec dns = protocol == Protocol.DNS ? new DnsSpec("_sip._tcp.example.com", DnsRecordType.SRV, "NXDOMAIN",
                List.of("10 5 5060 sip.example.com."), List.of("[0-9]+ [0-9]+ 5060 .*")) : DnsSpec.DEFAULTS;
        return new TargetSpec("api-7", "edge", "10.1.2.3", 8443, protocol, 7_000, 1_500, 2, 4, false, 0,
                Map.of("team", "payments", "tier", "1"), http, udp, tcp, List.of("eu-west", "us-east"),
                QuorumPolicy.AT_LEAST, 2, TargetProfile.GENERIC, null, null, grpc, tls, dns,
                "status == 200 && json.ok == true");
    }
}
