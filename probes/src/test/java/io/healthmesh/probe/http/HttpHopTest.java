package io.healthmesh.probe.http;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

class HttpHopTest {

    private static HttpHop hop(boolean tls, String host, int port) {
        return new HttpHop(tls, host, InetAddress.getLoopbackAddress(), port, "/x");
    }

    @Test
    void authorityCarriesThePortOnlyWhenItIsNotTheDefault() {
        assertThat(hop(false, "app.example.test", 80).authority()).isEqualTo("app.example.test");
        assertThat(hop(true, "app.example.test", 443).authority()).isEqualTo("app.example.test");
        assertThat(hop(false, "app.example.test", 443).authority()).isEqualTo("app.example.test:443");
        assertThat(hop(false, "10.0.0.5", 8080).authority()).isEqualTo("10.0.0.5:8080");
        assertThat(hop(true, "2001:db8::1", 443).authority()).isEqualTo("[2001:db8::1]");
        assertThat(hop(true, "2001:db8::1", 8443).url()).isEqualTo("https://[2001:db8::1]:8443/x");
    }

    @Test
    void configuredHostWithItsOwnPortIsSentAsWrittenAndSniDropsThePort() {
        HttpHop withPort = hop(true, "app.example.test:9443", 8443);
        assertThat(withPort.authority()).isEqualTo("app.example.test:9443");
        assertThat(withPort.peerHost()).isEqualTo("app.example.test");
        assertThat(hop(true, "[2001:db8::1]", 443).peerHost()).isEqualTo("2001:db8::1");
    }
}
