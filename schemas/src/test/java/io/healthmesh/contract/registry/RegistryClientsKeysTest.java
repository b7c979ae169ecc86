package io.healthmesh.contract.registry;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of a role's settings belong to its schema registry client. */
class RegistryClientsKeysTest {

    @Test
    void picksTheTlsKeysAndThePlainHttpSwitchOnly() {
        Map<String, String> settings = Map.of(
                "schema.registry.url", "https://registry:8081",
                "schema.registry.ssl.truststore.location", "/etc/trust.p12",
                "schema.registry.ssl.", "no name after the prefix",
                RegistryClients.ALLOW_INSECURE_HTTP, "true",
                "kafka.ssl.truststore.location", "/etc/kafka.p12",
                "region", "eu");

        assertThat(RegistryClients.clientKeys(settings)).containsExactly(
                Map.entry(RegistryClients.ALLOW_INSECURE_HTTP, "true"),
                Map.entry("schema.registry.ssl.truststore.location", "/etc/trust.p12"));
    }
}
