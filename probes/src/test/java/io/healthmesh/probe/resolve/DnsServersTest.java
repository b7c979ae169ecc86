package io.healthmesh.probe.resolve;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DnsServersTest {

    @Test
    void aServerWithoutAPortIsAskedOnPort53() {
        assertThat(DnsServers.parse("[::1]:5353").getPort()).isEqualTo(5353);
        assertThat(DnsServers.parse("10.0.0.3:5353").getPort()).isEqualTo(5353);
        assertThat(DnsServers.parse("::1").getPort()).isEqualTo(53);
    }
}
