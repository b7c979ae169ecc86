package io.healthmesh.probe;

import io.healthmesh.probe.resolve.DnsConfig;
import io.healthmesh.probe.icmp.IcmpSocketKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProbeEngineConfigTest {

    private final ProbeEngineConfig defaults = ProbeEngineConfig.defaults();

    @Test
    void defaultsAreTheSpecs() {
        assertThat(defaults.userAgent()).isEqualTo("healthmesh-healthcheck");
        assertThat(defaults.denyList()).containsExactly("169.254.0.0/16", "fe80::/10", "fd00:ec2::/32",
                "fd20:ce::254/128", "100.100.100.200/32", "168.63.129.16/32", "192.0.0.192/32", "fec0::/10",
                "64:ff9b:1::/48", "127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128",
                "224.0.0.0/4", "ff00::/8", "255.255.255.255/32");
        assertThat(defaults.allowList()).isEmpty();
        assertThat(defaults.deniedEndpoints()).isEmpty();
        assertThat(defaults.maxHeaderBytes()).isEqualTo(16 * 1024);
        assertThat(defaults.maxBodyBytes()).isEqualTo(5120);
        assertThat(defaults.maxRedirects()).isEqualTo(3);
        assertThat(defaults.icmpSocket()).isEqualTo(IcmpSocketKind.AUTO);
        assertThat(defaults.eventLoopThreads()).isPositive();
    }

    @Test
    void userAgentMustBePrintableAscii() {
        assertThatThrownBy(() -> defaults.withUserAgent(" "))
                .hasMessage("userAgent: ' ' (expected: 1..200 printable ASCII characters)");
        assertThatThrownBy(() -> defaults.withUserAgent("probe\r\nX-Evil: 1"))
                .hasMessageStartingWith("userAgent: 'probe");
    }

    @Test
    void denyListEntriesMustBeCidrs() {
        assertThatThrownBy(() -> defaults.withDenyList(List.of("169.254.0.0")))
                .hasMessage("denyList: '169.254.0.0' (expected: address/prefix such as 169.254.0.0/16 or fd00:ec2::/32)");
        assertThatThrownBy(() -> defaults.withDenyList(List.of("10.0.0.0/33")))
                .hasMessage("denyList: '10.0.0.0/33' (expected: address/prefix such as 169.254.0.0/16 or fd00:ec2::/32)");
        assertThatThrownBy(() -> defaults.withDenyList(List.of("example.com/8")))
                .hasMessageStartingWith("denyList: 'example.com/8'");
        assertThat(defaults.withDenyList(List.of()).denyList()).isEmpty();
    }

    @Test
    void allowListEntriesMustBeCidrs() {
        assertThatThrownBy(() -> defaults.withAllowList(List.of("127.0.0.1")))
                .hasMessage("allowList: '127.0.0.1' (expected: address/prefix such as 169.254.0.0/16 or fd00:ec2::/32)");
        assertThat(defaults.withAllowList(ProbeEngineConfig.LOOPBACK).allowList()).containsExactly("127.0.0.0/8", "::1/128");
    }

    @Test
    void deniedEndpointsMustBeHostAndPort() {
        assertThatThrownBy(() -> defaults.withDeniedEndpoints(List.of("kafka-1")))
                .hasMessage("deniedEndpoints: 'kafka-1' (expected: host:port or [IPv6]:port such as kafka-1:9092)");
        assertThatThrownBy(() -> defaults.withDeniedEndpoints(List.of("kafka-1:99999")))
                .hasMessageStartingWith("deniedEndpoints: 'kafka-1:99999'");
        assertThatThrownBy(() -> defaults.withDeniedEndpoints(List.of("::1:9092")))
                .hasMessageStartingWith("deniedEndpoints: '::1:9092'");
        assertThat(defaults.withDeniedEndpoints(List.of("kafka-1:9092", "[::1]:8081", "0.0.0.0:8080")).deniedEndpoints())
                .hasSize(3);
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> defaults.withMaxHeaderBytes(100)).hasMessage("maxHeaderBytes: 100 (expected: 1024..1048576)");
        assertThatThrownBy(() -> defaults.withMaxBodyBytes(0)).hasMessage("maxBodyBytes: 0 (expected: 64..1048576)");
        assertThatThrownBy(() -> defaults.withMaxRedirects(11)).hasMessage("maxRedirects: 11 (expected: 0..10)");
        assertThatThrownBy(() -> defaults.withEventLoopThreads(0)).hasMessage("eventLoopThreads: 0 (expected: 1..256)");
        assertThatThrownBy(() -> defaults.withResolver(DnsConfig.DEFAULTS, 0))
                .hasMessage("maxPendingResolutions: 0 (expected: 1..1000000)");
        assertThatThrownBy(() -> new DnsConfig(List.of(), 50, 300, 5))
                .hasMessage("dns.query.timeout.ms: 50 (expected: 100..60000)");
        assertThatThrownBy(() -> new DnsConfig(List.of(), 2000, -1, 5))
                .hasMessage("dns.cache.max.ttl.s: -1 (expected: 0..86400)");
        assertThatThrownBy(() -> new DnsConfig(List.of(), 2000, 300, 3601))
                .hasMessage("dns.cache.negative.ttl.s: 3601 (expected: 0..3600)");
        assertThatThrownBy(() -> new DnsConfig(List.of("ns.example.com"), 2000, 300, 5))
                .hasMessageStartingWith("dns.servers: 'ns.example.com' (expected: an IP address");
        assertThatThrownBy(() -> new DnsConfig(List.of("10.0.0.2:0"), 2000, 300, 5))
                .hasMessageStartingWith("dns.servers: '10.0.0.2:0'");
        assertThat(new DnsConfig(List.of("10.0.0.2", "10.0.0.3:5353", "[::1]:53", "::1"), 2000, 300, 5).servers())
                .hasSize(4);
        assertThatThrownBy(() -> defaults.withIcmp(IcmpSocketKind.RAW, 40_000))
                .hasMessage("maxOutstandingEchoes: 40000 (expected: 1..32768)");
        assertThatThrownBy(() -> defaults.withIcmp(null, 10)).hasMessage("icmpSocket");
    }
}
