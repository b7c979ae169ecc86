package io.healthmesh.registry;

import io.healthmesh.contract.registry.InMemoryRegistryLog;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.healthmesh.registry.RegistryHttp.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint and every error code of the HTTP API, on a registry kept in memory. */
class SchemaRegistryServerTest {

    static final String V1 = "{\"type\":\"record\",\"name\":\"Thing\",\"namespace\":\"t\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    static final String V2_DEFAULTED = "{\"type\":\"record\",\"name\":\"Thing\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"size\",\"type\":\"int\",\"default\":1}]}";
    static final String V2_REQUIRED = "{\"type\":\"record\",\"name\":\"Thing\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"size\",\"type\":\"int\"}]}";

    private final SchemaRegistryServer server = SchemaRegistryServer.startInMemory("127.0.0.1", 0);
    private final RegistryHttp http = new RegistryHttp(server.url());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void rootAndSchemaTypes() {
        assertThat(http.get("/").json().isObject()).isTrue();
        RegistryHttp.Answer types = http.get("/schemas/types");
        assertThat(types.status()).isEqualTo(200);
        assertThat(types.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(types.text()).isEqualTo("[\"AVRO\"]");
    }

    @Test
    void operationsEndpointsShareThePortAndCountRequests() {
        assertThat(http.get("/healthz").status()).isEqualTo(200);
        assertThat(http.get("/readyz").text()).isEqualTo("ready\n");
        http.post("/subjects/s/versions", schemaBody(V1));
        http.get("/subjects/nope/versions");
        RegistryHttp.Answer metrics = http.get("/metrics");
        assertThat(metrics.contentType()).startsWith("text/plain");
        assertThat(metrics.text())
                .contains("healthmesh_registry_requests_total{method=\"POST\",status=\"200\"} 1.0")
                .contains("healthmesh_registry_requests_total{method=\"GET\",status=\"404\"} 1.0");
    }

    @Test
    void registerLookupAndReadBack() {
        RegistryHttp.Answer registered = http.post("/subjects/things-value/versions", schemaBody(V1));
        assertThat(registered.status()).isEqualTo(200);
        assertThat(registered.text()).isEqualTo("{\"id\":1}");
        assertThat(http.post("/subjects/things-value/versions", schemaBody(V1)).json().get("id").asInt()).isEqualTo(1);

        String canonical = SchemaRegistry.parse(V1).toString();
        var lookup = http.post("/subjects/things-value", schemaBody(V1)).json();
        assertThat(lookup.get("subject").asText()).isEqualTo("things-value");
        assertThat(lookup.get("version").asInt()).isEqualTo(1);
        assertThat(lookup.get("id").asInt()).isEqualTo(1);
        assertThat(lookup.get("schema").asText()).isEqualTo(canonical);

        assertThat(http.get("/subjects").text()).isEqualTo("[\"things-value\"]");
        assertThat(http.get("/subjects/things-value/versions").text()).isEqualTo("[1]");
        for (String version : List.of("1", "latest", "-1")) {
            var found = http.get("/subjects/things-value/versions/" + version).json();
            assertThat(found.get("version").asInt()).isEqualTo(1);
            assertThat(found.get("id").asInt()).isEqualTo(1);
            assertThat(found.get("schema").asText()).isEqualTo(canonical);
            assertThat(http.get("/subjects/things-value/versions/" + version + "/schema").text()).isEqualTo(canonical);
        }
        assertThat(http.get("/schemas/ids/1").json().get("schema").asText()).isEqualTo(canonical);
        assertThat(http.get("/schemas/ids/1/schema").text()).isEqualTo(canonical);
    }

    @Test
    void plainJsonIsAcceptedToo() {
        RegistryHttp.Answer answer = http.send("POST", "/subjects/x-value/versions", schemaBody(V1), "application/json");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("id").asInt()).isEqualTo(1);
    }

    @Test
    void subjectsWithReservedCharactersArePercentEncoded() {
        assertThat(http.post("/subjects/a%20b%2Fc-value/versions", schemaBody(V1)).status()).isEqualTo(200);
        assertThat(http.get("/subjects").json().get(0).asText()).isEqualTo("a b/c-value");
        assertThat(http.get("/subjects/a%20b%2Fc-value/versions/1").json().get("subject").asText()).isEqualTo("a b/c-value");
    }

    @Test
    void notFoundCodes() {
        http.post("/subjects/things-value/versions", schemaBody(V1));
        assertError(http.get("/subjects/nope/versions"), 404, 40401);
        assertError(http.get("/subjects/nope/versions/1"), 404, 40401);
        assertError(http.post("/subjects/nope", schemaBody(V1)), 404, 40401);
        assertError(http.get("/subjects/things-value/versions/9"), 404, 40402);
        assertError(http.get("/schemas/ids/99"), 404, 40403);
        assertError(http.get("/schemas/ids/abc"), 404, 40403);
        assertError(http.get("/schemas/ids/-3/schema"), 404, 40403);
        assertError(http.post("/subjects/things-value", schemaBody(V2_DEFAULTED)), 404, 40403);
        assertError(http.get("/config/things-value"), 404, 40408);
    }

    @Test
    void unprocessableCodes() {
        assertError(http.post("/subjects/s/versions", schemaBody("{\"type\":\"record\"}")), 422, 42201);
        assertError(http.post("/subjects/s/versions", "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}"), 422, 42201);
        assertError(http.post("/subjects/s/versions", "{\"schema\":\"\\\"string\\\"\",\"references\":[{\"name\":\"x\"}]}"), 422, 42201);
        assertError(http.post("/subjects/s/versions", "{\"other\":1}"), 422, 42201);
        http.post("/subjects/s/versions", schemaBody(V1));
        assertError(http.get("/subjects/s/versions/abc"), 422, 42202);
        assertError(http.get("/subjects/s/versions/0"), 422, 42202);
        assertError(http.delete("/subjects/s/versions/2147483648"), 422, 42202);
        assertError(http.put("/config", "{\"compatibility\":\"SIDEWAYS\"}"), 422, 42203);
        assertError(http.put("/config/s", "{}"), 422, 42203);
        assertError(http.post("/subjects/%20/versions", schemaBody(V1)), 422, 42208);
    }

    @Test
    void incompatibleSchemasAreRefusedWith409() {
        http.post("/subjects/s/versions", schemaBody(V1));
        RegistryHttp.Answer refused = http.post("/subjects/s/versions", schemaBody(V2_REQUIRED));
        assertError(refused, 409, 409);
        assertThat(refused.json().get("message").asText()).contains("incompatible").contains("size");
        assertThat(http.get("/subjects/s/versions").text()).isEqualTo("[1]");
        assertThat(http.post("/subjects/s/versions", schemaBody(V2_DEFAULTED)).json().get("id").asInt()).isEqualTo(2);
    }

    @Test
    void targetDefinitionEvolvesOnlyCompatiblyOverHttp() {
        org.apache.avro.Schema v1 = io.healthmesh.schema.TargetDefinition.getClassSchema();
        String v1Text = v1.toString();
        String withDefaulted = v1Text.replaceFirst("\\]}$",
                ",{\"name\":\"ownerTeam\",\"type\":\"string\",\"default\":\"unowned\",\"doc\":\"Owner.\"}]}");
        String withoutAddress = v1Text.replaceFirst("\\{\"name\":\"address\",\"type\":\\{[^}]*\\},\"doc\":\"[^\"]*\"\\},", "");
        assertThat(withDefaulted).isNotEqualTo(v1Text);
        assertThat(withoutAddress).isNotEqualTo(v1Text).doesNotContain("\"address\"");

        assertThat(http.post("/subjects/targets-value/versions", schemaBody(v1Text)).status()).isEqualTo(200);
        assertThat(http.post("/subjects/targets-value/versions", schemaBody(withDefaulted)).status()).isEqualTo(200);
        assertThat(http.get("/subjects/targets-value/versions").text()).isEqualTo("[1,2]");

        http.put("/config/strict-targets-value", "{\"compatibility\":\"FULL\"}");
        http.post("/subjects/strict-targets-value/versions", schemaBody(v1Text));
        assertError(http.post("/subjects/strict-targets-value/versions", schemaBody(withoutAddress)), 409, 409);
    }

    @Test
    void compatibilityEndpoint() {
        assertThat(http.post("/compatibility/subjects/s/versions/latest", schemaBody(V1)).text()).isEqualTo("{\"is_compatible\":true}");
        http.post("/subjects/s/versions", schemaBody(V1));
        assertThat(http.post("/compatibility/subjects/s/versions/latest", schemaBody(V2_DEFAULTED)).json().get("is_compatible").asBoolean()).isTrue();
        assertThat(http.post("/compatibility/subjects/s/versions/1", schemaBody(V2_REQUIRED)).json().get("is_compatible").asBoolean()).isFalse();
        var verbose = http.post("/compatibility/subjects/s/versions?verbose=true", schemaBody(V2_REQUIRED)).json();
        assertThat(verbose.get("is_compatible").asBoolean()).isFalse();
        assertThat(verbose.get("messages").get(0).asText()).contains("READER_FIELD_MISSING_DEFAULT_VALUE");
        assertError(http.post("/compatibility/subjects/s/versions/7", schemaBody(V1)), 404, 40402);
        assertError(http.post("/compatibility/subjects/nope/versions/1", schemaBody(V1)), 404, 40401);
        assertError(http.post("/compatibility/subjects/s/versions/x", schemaBody(V1)), 422, 42202);
        assertError(http.post("/compatibility/subjects/s/versions/1", schemaBody("{")), 422, 42201);
    }

    @Test
    void globalAndSubjectConfig() {
        assertThat(http.get("/config").text()).isEqualTo("{\"compatibilityLevel\":\"BACKWARD\"}");
        assertThat(http.put("/config", "{\"compatibility\":\"full\"}").text()).isEqualTo("{\"compatibility\":\"FULL\"}");
        assertThat(http.get("/config").text()).isEqualTo("{\"compatibilityLevel\":\"FULL\"}");
        assertThat(http.get("/config/s?defaultToGlobal=true").text()).isEqualTo("{\"compatibilityLevel\":\"FULL\"}");
        assertThat(http.put("/config/s", "{\"compatibility\":\"NONE\"}").text()).isEqualTo("{\"compatibility\":\"NONE\"}");
        assertThat(http.get("/config/s").text()).isEqualTo("{\"compatibilityLevel\":\"NONE\"}");
        // NONE lets an incompatible schema in
        http.post("/subjects/s/versions", schemaBody(V1));
        assertThat(http.post("/subjects/s/versions", schemaBody(V2_REQUIRED)).status()).isEqualTo(200);
        assertThat(http.delete("/config/s").text()).isEqualTo("{\"compatibilityLevel\":\"NONE\"}");
        assertError(http.get("/config/s"), 404, 40408);
        assertError(http.delete("/config/s"), 404, 40408);
    }

    @Test
    void softAndPermanentDeletion() {
        http.post("/subjects/s/versions", schemaBody(V1));
        http.post("/subjects/s/versions", schemaBody(V2_DEFAULTED));
        assertThat(http.delete("/subjects/s/versions/1").text()).isEqualTo("1");
        assertThat(http.get("/subjects/s/versions").text()).isEqualTo("[2]");
        assertThat(http.get("/subjects/s/versions?deleted=true").text()).isEqualTo("[1,2]");
        assertThat(http.get("/subjects/s/versions/1?deleted=true").json().get("id").asInt()).isEqualTo(1);
        assertThat(http.get("/schemas/ids/1").status()).isEqualTo(200);
        assertError(http.delete("/subjects/s/versions/1"), 404, 40406);
        assertError(http.delete("/subjects/s/versions/2?permanent=true"), 404, 40407);
        assertThat(http.delete("/subjects/s/versions/1?permanent=true").text()).isEqualTo("1");
        assertError(http.delete("/subjects/s/versions/1"), 404, 40402);

        assertError(http.delete("/subjects/s?permanent=true"), 404, 40405);
        assertThat(http.delete("/subjects/s").text()).isEqualTo("[2]");
        assertThat(http.get("/subjects").text()).isEqualTo("[]");
        assertThat(http.get("/subjects?deleted=true").text()).isEqualTo("[\"s\"]");
        assertError(http.delete("/subjects/s"), 404, 40404);
        assertThat(http.delete("/subjects/s?permanent=true").text()).isEqualTo("[2]");
        assertError(http.delete("/subjects/s"), 404, 40401);
        assertError(http.get("/schemas/ids/2"), 404, 40403);
    }

    @Test
    void unknownPathsBadMethodsAndMalformedBodies() {
        assertError(http.get("/nothing/here"), 404, 404);
        assertError(http.get("/subjects/s/versions/1/schema/extra"), 404, 404);
        assertError(http.put("/subjects", "{}"), 405, 405);
        assertError(http.get("/subjects/s"), 405, 405);
        assertError(http.send("PATCH", "/config", "{}", "application/json"), 405, 405);
        assertError(http.get("/compatibility/subjects/s/versions/1"), 405, 405);
        assertError(http.post("/subjects/s/versions", "{not json"), 400, 400);
        assertError(http.post("/subjects/s/versions", "[1,2]"), 400, 400);
        assertError(http.post("/subjects/s/versions", ""), 400, 400);
        assertError(http.put("/config", "nope"), 400, 400);
    }

    @Test
    void aBodyOverTheLimitIs413AndTheConnectionCloses() throws IOException {
        String answer = rawExchange("POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + (SchemaRegistryServer.MAX_BODY_BYTES + 1) + "\r\n\r\n{\"schema\":\"");
        assertThat(answer).startsWith("HTTP/1.1 413").contains("\"error_code\":413");
    }

    @Test
    void aGarbledRequestLineIs400NotAHang() throws IOException {
        String answer = rawExchange("\u0001\u0002 garbage\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("\"error_code\":400");
    }

    @Test
    void concurrentRegistrationsOfOneSchemaYieldOneId() throws Exception {
        int clients = 16;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> ids = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                ids.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return http.post("/subjects/race-value/versions", schemaBody(V1)).json().get("id").asInt();
                }));
            }
            start.countDown();
            Set<Integer> distinct = new HashSet<>();
            for (Future<Integer> id : ids) {
                distinct.add(id.get(30, TimeUnit.SECONDS));
            }
            assertThat(distinct).containsExactly(1);
            assertThat(http.get("/subjects/race-value/versions").text()).isEqualTo("[1]");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRestartOnTheSameLogKeepsIdsAndVersions() {
        InMemoryRegistryLog log = new InMemoryRegistryLog();
        try (SchemaRegistryServer first = SchemaRegistryServer.serve("127.0.0.1", 0, SchemaRegistry.open(log), () -> { })) {
            RegistryHttp before = new RegistryHttp(first.url());
            before.post("/subjects/a-value/versions", schemaBody(V1));
            before.post("/subjects/a-value/versions", schemaBody(V2_DEFAULTED));
        }
        try (SchemaRegistryServer second = SchemaRegistryServer.serve("127.0.0.1", 0, SchemaRegistry.open(log), () -> { })) {
            RegistryHttp after = new RegistryHttp(second.url());
            assertThat(after.get("/subjects/a-value/versions").text()).isEqualTo("[1,2]");
            assertThat(after.get("/schemas/ids/2/schema").text()).isEqualTo(SchemaRegistry.parse(V2_DEFAULTED).toString());
            assertThat(after.post("/subjects/b-value/versions", schemaBody("\"long\"")).text()).isEqualTo("{\"id\":3}");
        }
    }

    /** Sends raw bytes and reads the answer until the server closes (bounded by a socket timeout). */
    private String rawExchange(String request) throws IOException {
        URI uri = URI.create(server.url());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                answer.write(buffer, 0, read);
            }
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    private static void assertError(RegistryHttp.Answer answer, int status, int errorCode) {
        assertThat(answer.status()).as(answer.text()).isEqualTo(status);
        assertThat(answer.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(answer.errorCode()).as(answer.text()).isEqualTo(errorCode);
        assertThat(answer.json().get("message").asText()).isNotBlank();
    }
}
