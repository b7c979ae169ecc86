package io.healthmesh.registry;

import com.sun.net.httpserver.HttpServer;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.registry.HttpRegistryClient;
import io.healthmesh.contract.registry.RegisteredSchema;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.AvroSerde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The serde's HTTP client against the real server (and, for what the server does not check, a recording stub). */
class HttpRegistryClientTest {

    private final SchemaRegistryServer server = SchemaRegistryServer.startInMemory("127.0.0.1", 0);

    @AfterEach
    void stop() {
        server.close();
    }

    private SchemaRegistryClient client() {
        return RegistryClients.fromConfig(Map.of("schema.registry.url", server.url()));
    }

    @Test
    void registerLookupLatestAndById() {
        SchemaRegistryClient client = client();
        String schema = GroupHealth.getClassSchema().toString();
        int id = client.register("groups-value", schema);
        assertThat(id).isEqualTo(1);
        RegisteredSchema found = client.lookup("groups-value", schema);
        assertThat(found).isEqualTo(new RegisteredSchema("groups-value", 1, 1, schema));
        assertThat(client.latest("groups-value")).isEqualTo(found);
        assertThat(client.schemaById(1)).isEqualTo(schema);
    }

    @Test
    void refusalsCarryTheRegistryErrorCode() {
        SchemaRegistryClient client = client();
        assertThatThrownBy(() -> client.latest("nope")).isInstanceOfSatisfying(RegistryException.class,
                e -> assertThat(e.errorCode()).isEqualTo(40401));
        assertThatThrownBy(() -> client.schemaById(5)).isInstanceOfSatisfying(RegistryException.class,
                e -> assertThat(e.errorCode()).isEqualTo(40403));
        assertThatThrownBy(() -> client.register("s", "{\"type\":\"nope\"}")).isInstanceOfSatisfying(RegistryException.class,
                e -> assertThat(e.errorCode()).isEqualTo(42201));
    }

    @Test
    void theSerdeWorksOverHttp() {
        Map<String, Object> config = Map.of("schema.registry.url", server.url());
        AvroSerde<TargetDefinition> producer = AvroSerde.forValues(TargetDefinition.class, config);
        AvroSerde<TargetDefinition> consumer = AvroSerde.forValues(TargetDefinition.class, config);
        TargetDefinition target = TargetDefinition.newBuilder().setId("t1").setAddress("127.0.0.1")
                .setProtocol(io.healthmesh.schema.Protocol.TCP).build();
        byte[] bytes = producer.serializer().serialize("healthmesh.targets", target);
        assertThat(consumer.deserializer().deserialize("healthmesh.targets", bytes)).isEqualTo(target);
        assertThat(new RegistryHttp(server.url()).get("/subjects").text()).isEqualTo("[\"healthmesh.targets-value\"]");
    }

    @Test
    void aSecondUrlIsTriedWhenTheFirstIsUnreachable() {
        SchemaRegistryClient client = RegistryClients.fromConfig(Map.of("schema.registry.url", "http://127.0.0.1:1," + server.url()));
        assertThat(client.register("s-value", "\"string\"")).isEqualTo(1);
    }

    @Test
    void basicAuthFromUserInfoOrFromTheUrlAndNeverTheUrlItself() throws IOException {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        List<String> paths = new CopyOnWriteArrayList<>();
        HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", exchange -> {
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            paths.add(exchange.getRequestURI().getRawPath());
            assertThat(exchange.getRequestHeaders().getFirst("Content-Type")).isEqualTo(HttpRegistryClient.CONTENT_TYPE);
            byte[] body = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        stub.start();
        try {
            int port = stub.getAddress().getPort();
            SchemaRegistryClient userInfo = RegistryClients.fromConfig(Map.of("schema.registry.url", "http://127.0.0.1:" + port,
                    "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "fred:s3cret",
                    RegistryClients.ALLOW_INSECURE_HTTP, "true"));
            assertThat(userInfo.register("a b-value", "\"string\"")).isEqualTo(7);
            SchemaRegistryClient fromUrl = RegistryClients.fromConfig(Map.of("schema.registry.url", "http://ann:pw@127.0.0.1:" + port,
                    RegistryClients.ALLOW_INSECURE_HTTP, true));
            assertThat(fromUrl.register("x-value", "\"string\"")).isEqualTo(7);
        } finally {
            stub.stop(0);
        }
        assertThat(authorizations).containsExactly(
                "Basic " + java.util.Base64.getEncoder().encodeToString("fred:s3cret".getBytes(StandardCharsets.UTF_8)),
                "Basic " + java.util.Base64.getEncoder().encodeToString("ann:pw".getBytes(StandardCharsets.UTF_8)));
        assertThat(paths).containsExactly("/subjects/a%20b-value/versions", "/subjects/x-value/versions");
    }

    @Test
    void credentialsAreNeverSentOverPlainHttpUnlessAllowed() {
        assertThatThrownBy(() -> RegistryClients.fromConfig(Map.of("schema.registry.url", "http://127.0.0.1:1",
                "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "fred:s3cret")))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageContaining("http://127.0.0.1:1 with basic-auth credentials (expected: https://, or "
                        + RegistryClients.ALLOW_INSECURE_HTTP + "=true")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> RegistryClients.fromConfig(Map.of("schema.registry.url", "https://a:1,http://ann:pw@b:2")))
                .hasMessageContaining("http://b:2 with basic-auth credentials").hasMessageNotContaining("pw");
        assertThatThrownBy(() -> RegistryClients.fromConfig(Map.of("schema.registry.url", "http://ann:pw@b:2",
                RegistryClients.ALLOW_INSECURE_HTTP, "maybe"))).hasMessageContaining("expected: true or false");
        // no credentials: plain http is fine; https with credentials is fine
        assertThat(RegistryClients.fromConfig(Map.of("schema.registry.url", "http://127.0.0.1:1"))).isNotNull();
        assertThat(RegistryClients.fromConfig(Map.of("schema.registry.url", "https://ann:pw@127.0.0.1:1"))).isNotNull();
    }
}
