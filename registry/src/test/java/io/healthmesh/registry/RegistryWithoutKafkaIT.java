package io.healthmesh.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry when its broker goes away: a registration fails with Confluent's store error
 * (50001) within the configured bounds instead of hanging, and what the registry knows is still served.
 * Starts a broker of its own, since it stops it.
 */
class RegistryWithoutKafkaIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aRegistrationWithoutKafkaIsAStoreErrorAndReadsGoOn() throws Exception {
        EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        // short producer bounds so the refusal comes in seconds
        RegistryConfig config = new RegistryConfig(broker.bootstrapServers(), "_schemas", "127.0.0.1", 0, Map.of(
                "max.block.ms", "2000", "delivery.timeout.ms", "3000", "request.timeout.ms", "1000"));
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(config)) {
            HttpResponse<String> first = post(registry.url() + "/subjects/a-value/versions", "\"string\"");
            assertThat(first.statusCode()).isEqualTo(200);

            broker.close();

            long started = System.nanoTime();
            HttpResponse<String> refused = post(registry.url() + "/subjects/b-value/versions", "\"long\"");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(500);
            JsonNode error = JSON.readTree(refused.body());
            assertThat(error.get("error_code").asInt()).isEqualTo(50001);
            assertThat(error.get("message").asText()).contains("_schemas");
            // max.block + delivery + margin, far below the HTTP timeout
            assertThat(took).isLessThan(Duration.ofSeconds(15));

            HttpResponse<String> known = HTTP.send(HttpRequest.newBuilder(URI.create(registry.url() + "/schemas/ids/1"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(known.statusCode()).isEqualTo(200);
            HttpResponse<String> subjects = HTTP.send(HttpRequest.newBuilder(URI.create(registry.url() + "/subjects"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(subjects.body()).isEqualTo("[\"a-value\"]");
        } finally {
            broker.close();
        }
    }

    private static HttpResponse<String> post(String url, String schema) throws Exception {
        String body = JSON.createObjectNode().put("schema", schema).toString();
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
