package io.healthmesh.probe.condition;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Conditions on HTTP checks against a loopback server that answers JSON. */
class HttpConditionTest {

    private static NettyProbeEngine engine;

    @BeforeAll
    static void start() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null);
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static ScriptedServer answering(String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "X-Build: 41\r\nContent-Length: " + bytes.length + "\r\n\r\n" + body));
    }

    private static ProbeReport run(int port, HttpMethod method, String condition) throws Exception {
        TargetSpec target = Targets.http(port, Targets.GENEROUS_MS)
                .withHttp(new HttpSpec(method, "/health", null, List.of("2xx"), false, Map.of(), null, false))
                .withCondition(condition);
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    @Test
    void aDegradedJsonBodyFailsAConditionThatWantsOk() throws Exception {
        try (ScriptedServer server = answering("{\"status\":\"degraded\"}")) {
            ProbeReport report = run(server.port(), HttpMethod.GET, "json.status == \"ok\"");
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).isEqualTo("condition false").doesNotContain("degraded");
            assertThat(report.httpStatus()).isEqualTo(200);
        }
    }

    @Test
    void anOkJsonBodyAndItsHeadersPass() throws Exception {
        try (ScriptedServer server = answering("{\"status\":\"ok\",\"checks\":[{\"name\":\"db\",\"up\":true}]}")) {
            ProbeReport report = run(server.port(), HttpMethod.GET, "status == 200 && json.status == 'ok'"
                    + " && json.checks.all(c, c.up) && headers['x-build'] == '41'"
                    + " && headers['content-type'].startsWith('application/json')");
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.detail()).isEqualTo("status 200");
        }
    }

    @Test
    void aHeadCheckSeesTheHeadersAndAnEmptyBody() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) ->
                srv.write(s, "HTTP/1.1 200 OK\r\nX-Build: 41\r\nContent-Length: 0\r\n\r\n"))) {
            assertThat(run(server.port(), HttpMethod.HEAD, "headers['x-build'] == '41' && body == ''").outcome())
                    .isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void aBodyLargerThanTheBoundIsCutAndIsNotJson() throws Exception {
        String big = "{\"pad\":\"" + "x".repeat(40_000) + "\",\"status\":\"ok\"}";
        try (ScriptedServer server = answering(big)) {
            ProbeReport report = run(server.port(), HttpMethod.GET, "json == null && size(body) == 16384");
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }
}
