package io.healthmesh.registry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.healthmesh.registry.RegistryHttp.schemaBody;
import static io.healthmesh.registry.SchemaRegistryServerTest.V1;
import static io.healthmesh.registry.SchemaRegistryServerTest.V2_DEFAULTED;
import static org.assertj.core.api.Assertions.assertThat;

/** Basic authentication and roles on a real (in-memory) registry over HTTP. */
class RegistryAuthTest {

    private static final RegistryUsers USERS = RegistryUsers.parse(List.of(
            "admin:admin:s3cret-admin", "# workers and clients", "worker:read:w0rker:pass"), "test users");

    private SchemaRegistryServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RegistryHttp start(RegistrySecurity security) {
        server = SchemaRegistryServer.startInMemory("127.0.0.1", 0, security);
        return new RegistryHttp(server.url());
    }

    @Test
    void unauthenticatedRequestsGet401WithAChallengeAndWritesNothing() {
        RegistryHttp anonymous = start(RegistrySecurity.basic(USERS));
        RegistryHttp.Answer write = anonymous.post("/subjects/s/versions", schemaBody(V1));
        assertThat(write.status()).isEqualTo(401);
        assertThat(write.errorCode()).isEqualTo(40101);
        assertThat(write.wwwAuthenticate()).startsWith("Basic realm=");
        assertThat(anonymous.get("/subjects").status()).isEqualTo(401);
        assertThat(anonymous.as("admin", "wrong").post("/subjects/s/versions", schemaBody(V1)).status()).isEqualTo(401);
        assertThat(anonymous.as("nobody", "s3cret-admin").get("/subjects").status()).isEqualTo(401);
        assertThat(anonymous.as("admin", "s3cret-admin").get("/subjects").text()).isEqualTo("[]");
        // the ops endpoints answer without credentials (container health checks)
        assertThat(anonymous.get("/healthz").status()).isEqualTo(200);
    }

    @Test
    void aReadOnlyUserReadsAndReRegistersButCannotAddSchemas() {
        RegistryHttp http = start(RegistrySecurity.basic(USERS).withDeletes(true).withConfigChanges(true));
        RegistryHttp admin = http.as("admin", "s3cret-admin");
        RegistryHttp worker = http.as("worker", "w0rker:pass");

        RegistryHttp.Answer refused = worker.post("/subjects/s/versions", schemaBody(V1));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.errorCode()).isEqualTo(40301);
        assertThat(admin.get("/subjects").text()).isEqualTo("[]");

        int id = admin.post("/subjects/s/versions", schemaBody(V1)).json().get("id").asInt();
        // the serializer's call with a schema already there changes nothing: allowed, same id
        RegistryHttp.Answer again = worker.post("/subjects/s/versions", schemaBody(V1));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("id").asInt()).isEqualTo(id);
        assertThat(worker.post("/subjects/s/versions", schemaBody(V2_DEFAULTED)).status()).isEqualTo(403);
        assertThat(worker.get("/schemas/ids/" + id).status()).isEqualTo(200);
        assertThat(worker.post("/subjects/s", schemaBody(V1)).status()).isEqualTo(200);
        assertThat(worker.post("/compatibility/subjects/s/versions/latest", schemaBody(V2_DEFAULTED)).status()).isEqualTo(200);

        assertThat(worker.delete("/subjects/s").status()).isEqualTo(403);
        assertThat(worker.put("/config", "{\"compatibility\":\"NONE\"}").status()).isEqualTo(403);
        assertThat(worker.delete("/config/s").status()).isEqualTo(403);
        assertThat(admin.get("/subjects/s/versions").text()).isEqualTo("[1]");

        assertThat(admin.put("/config", "{\"compatibility\":\"FULL\"}").status()).isEqualTo(200);
        assertThat(admin.delete("/subjects/s").status()).isEqualTo(200);
    }

    @Test
    void deletesAndConfigChangesAreOffUnlessEnabledEvenForAdmins() {
        RegistryHttp admin = start(RegistrySecurity.basic(USERS)).as("admin", "s3cret-admin");
        admin.post("/subjects/s/versions", schemaBody(V1));
        RegistryHttp.Answer delete = admin.delete("/subjects/s?permanent=true");
        assertThat(delete.status()).isEqualTo(403);
        assertThat(delete.json().get("message").asText()).contains("registry.deletes.enable");
        assertThat(admin.delete("/subjects/s/versions/1").status()).isEqualTo(403);
        assertThat(admin.put("/config", "{\"compatibility\":\"NONE\"}").json().get("message").asText())
                .contains("registry.config.changes.enable");
        assertThat(admin.put("/config/s", "{\"compatibility\":\"NONE\"}").status()).isEqualTo(403);
        assertThat(admin.get("/subjects/s/versions").text()).isEqualTo("[1]");
        assertThat(admin.get("/config").json().get("compatibilityLevel").asText()).isEqualTo("BACKWARD");
    }

    @Test
    void anonymousReadsWhenAllowedButNeverAnonymousWrites() {
        RegistryHttp http = start(RegistrySecurity.basic(USERS).withAnonymousRead(true));
        http.as("admin", "s3cret-admin").post("/subjects/s/versions", schemaBody(V1));
        assertThat(http.get("/subjects").text()).isEqualTo("[\"s\"]");
        assertThat(http.get("/subjects/s/versions/latest").status()).isEqualTo(200);
        // anonymous clients have the read role: re-registering changes nothing, a new schema needs credentials
        assertThat(http.post("/subjects/s/versions", schemaBody(V1)).status()).isEqualTo(200);
        assertThat(http.post("/subjects/s/versions", schemaBody(V2_DEFAULTED)).status()).isEqualTo(401);
        assertThat(http.post("/subjects/new/versions", schemaBody(V1)).status()).isEqualTo(401);
        assertThat(http.as("admin", "bad").get("/subjects").status()).isEqualTo(401);
        assertThat(http.put("/config", "{\"compatibility\":\"NONE\"}").status()).isEqualTo(401);
    }
}
