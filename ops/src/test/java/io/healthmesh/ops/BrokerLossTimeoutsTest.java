package io.healthmesh.ops;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BrokerLossTimeoutsTest {

    @Test
    void aShortRequestTimeoutByDefault() {
        assertThat(BrokerLossTimeouts.withDefaults(Map.of("security.protocol", "SSL")))
                .containsEntry("request.timeout.ms", "5000")
                .containsEntry("security.protocol", "SSL")
                .doesNotContainKey("admin.default.api.timeout.ms");
    }

    @Test
    void aStreamsAppAlsoBoundsItsAdminCalls() {
        assertThat(BrokerLossTimeouts.withStreamsDefaults(Map.of()))
                .containsEntry("request.timeout.ms", "5000")
                .containsEntry("admin.default.api.timeout.ms", "15000");
    }

    @Test
    void thePassThroughWins() {
        assertThat(BrokerLossTimeouts.withStreamsDefaults(Map.of("request.timeout.ms", "30000",
                "admin.default.api.timeout.ms", "60000")))
                .containsEntry("request.timeout.ms", "30000")
                .containsEntry("admin.default.api.timeout.ms", "60000");
    }
}
