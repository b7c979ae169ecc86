package io.healthmesh.prober;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code probe.source.address} and {@code l4.marker}: the probes' source for allow-listing (000, 002). */
class ProbeSourceSettingsTest {

    private static Map<String, String> with(String key, String value) {
        Map<String, String> m = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "schema.registry.url", "mem://t"));
        m.put(key, value);
        return m;
    }

    @Test
    void defaultsAreTheSystemsSourceAndNoMarker() {
        ProberConfig c = ProberConfig.from(with("region", "eu"));
        assertThat(c.probeSource().bindAddress()).isNull();
        assertThat(c.probeSource().l4Marker()).isEmpty();
    }

    @Test
    void aLocalAddressAndAMarkerAreTaken() throws Exception {
        Map<String, String> s = with("probe.source.address", "127.0.0.2");
        s.put("l4.marker", "HEALTH CHECK");
        ProberConfig c = ProberConfig.from(s);
        assertThat(c.probeSource().bindAddress()).isEqualTo(InetAddress.getByName("127.0.0.2"));
        assertThat(c.probeSource().l4Marker()).isEqualTo("HEALTH CHECK");
    }

    @Test
    void namesForeignAddressesAndBadMarkersAreRefused() {
        assertThatThrownBy(() -> ProberConfig.from(with("probe.source.address", "example.com")))
                .hasMessageContaining("probe.source.address: example.com (expected: an IP address of this host)");
        assertThatThrownBy(() -> ProberConfig.from(with("probe.source.address", "192.0.2.77")))
                .hasMessageContaining("probe.source.address: 192.0.2.77 (expected: an address of this host's interfaces)");
        assertThatThrownBy(() -> ProberConfig.from(with("l4.marker", "x".repeat(65))))
                .hasMessageContaining("l4.marker: l4Marker:");
    }
}
