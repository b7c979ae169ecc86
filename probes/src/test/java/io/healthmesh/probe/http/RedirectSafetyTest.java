package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What a redirect may carry on (custom headers) and what a probe's detail may say about it (BEHAVIOUR.md section 11). */
class RedirectSafetyTest {

    private static final String SECRET = "Bearer s3cr3t-token";
    private static NettyProbeEngine engine;

    @BeforeAll
    static void start() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1).withMaxRedirects(2), null);
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static ProbeReport get(int port, String path) throws Exception {
        TargetSpec target = Targets.target(Protocol.HTTP, "127.0.0.1", port, Targets.GENEROUS_MS)
                .withHttp(new HttpSpec(HttpMethod.GET, path, null, List.of("2xx"), true,
                        Map.of("Authorization", SECRET, "X-Tenant", "t-1"), null, false));
        return engine.probe(target).get(Targets.GENEROUS_MS + 5000L, TimeUnit.MILLISECONDS);
    }

    private static ScriptedServer ok() throws Exception {
        return ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    }

    private static ScriptedServer redirecting(String location) throws Exception {
        return ScriptedServer.http((s, head, srv) -> srv.write(s, head.startsWith("GET /start ")
                ? "HTTP/1.1 302 Found\r\nLocation: " + location + "\r\nContent-Length: 0\r\n\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    }

    @Test
    void customHeadersAreNotSentToAnotherHost() throws Exception {
        // 127.0.0.1 -> localhost: the same machine, another host name
        try (ScriptedServer other = ok();
             ScriptedServer redirector = redirecting("http://localhost:" + other.port() + "/next")) {
            ProbeReport report = get(redirector.port(), "/start");
            assertThat(report.outcome()).as(report.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(redirector.requests().get(0)).contains("Authorization: " + SECRET);
            assertThat(other.requests()).hasSize(1);
            assertThat(other.requests().get(0)).doesNotContainIgnoringCase("authorization").doesNotContain("X-Tenant");
        }
    }

    @Test
    void customHeadersAreNotSentToAnotherPortOfTheSameHost() throws Exception {
        try (ScriptedServer other = ok();
             ScriptedServer redirector = redirecting("http://127.0.0.1:" + other.port() + "/next")) {
            assertThat(get(redirector.port(), "/start").outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(other.requests().get(0)).doesNotContainIgnoringCase("authorization");
        }
    }

    @Test
    void customHeadersStayOnARedirectWithinTheSameServer() throws Exception {
        try (ScriptedServer redirector = redirecting("/next")) {
            assertThat(get(redirector.port(), "/start").outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(redirector.requests()).hasSize(2);
            assertThat(redirector.requests().get(1)).startsWith("GET /next ").contains("Authorization: " + SECRET);
        }
    }

    @Test
    void theDecisionDropsHeadersOnHostChangeAndDowngrade() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        HttpHop https = new HttpHop(true, "app.example", lo, 443, "/");
        HttpHop http = new HttpHop(false, "app.example", lo, 80, "/");
        assertThat(HttpProber.keepsCustomHeaders(https, "app.example", true, 443)).isTrue();
        assertThat(HttpProber.keepsCustomHeaders(https, "APP.example", true, 443)).isTrue();
        assertThat(HttpProber.keepsCustomHeaders(https, "app.example", false, 443)).as("https -> http").isFalse();
        assertThat(HttpProber.keepsCustomHeaders(https, "app.example", false, 80)).as("https -> http").isFalse();
        assertThat(HttpProber.keepsCustomHeaders(https, "evil.example", true, 443)).isFalse();
        assertThat(HttpProber.keepsCustomHeaders(https, "app.example", true, 8443)).isFalse();
        assertThat(HttpProber.keepsCustomHeaders(http, "app.example", true, 443)).as("http -> https upgrade").isTrue();
        HttpHop dropped = new HttpHop(true, "app.example", lo, 443, "/", false);
        assertThat(HttpProber.keepsCustomHeaders(dropped, "app.example", true, 443)).as("never back").isFalse();
    }

    @Test
    void detailsCarryNeitherCredentialsNorQueriesOfALocation() throws Exception {
        String location = "http://admin:hunter2@127.0.0.1:1/loop;jsessionid=S3CR3T?token=abc123&sig=zzz#frag";
        try (ScriptedServer redirector = ScriptedServer.http((s, head, srv) -> srv.write(s,
                "HTTP/1.1 302 Found\r\nLocation: " + location + "\r\nContent-Length: 0\r\n\r\n"))) {
            TargetSpec target = Targets.target(Protocol.HTTP, "127.0.0.1", redirector.port(), Targets.GENEROUS_MS)
                    .withHttp(new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), true, Map.of(), null, false));
            try (NettyProbeEngine noRedirects = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                    .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1).withMaxRedirects(0), null)) {
                ProbeReport report = noRedirects.probe(target).get(15, TimeUnit.SECONDS);
                assertThat(report.outcome()).isEqualTo(Outcome.TOO_MANY_REDIRECTS);
                assertThat(report.detail()).isEqualTo("more than 0 redirects; next: http://127.0.0.1:1/loop (query removed)");
            }
        }
        assertThat(SafeLocation.of("ftp://u:p@host/x?y")).isEqualTo("ftp:");
        assertThat(SafeLocation.of("https://app.example/login;jsessionid=ABC123"))
                .isEqualTo("https://app.example/login (query removed)");
        assertThat(SafeLocation.of("/a;p=1/b;q=2/c")).isEqualTo("/a/b/c (query removed)");
        assertThat(SafeLocation.of("HTTPS://u@app.example/x")).isEqualTo("https://app.example/x");
        assertThat(SafeLocation.of("javascript:alert(document.cookie)")).isEqualTo("javascript:");
        assertThat(SafeLocation.of("data:text/html;base64,c2VjcmV0")).isEqualTo("data:");
        assertThat(SafeLocation.of("mailto:ops@internal.example")).isEqualTo("mailto:");
        assertThat(SafeLocation.of("x-" + "s".repeat(100) + ":payload")).isEqualTo("x-" + "s".repeat(30) + "...:");
        assertThat(SafeLocation.of("//u:p@host/a#b")).isEqualTo("//host/a (query removed)");
        assertThat(SafeLocation.of("/relative/path")).isEqualTo("/relative/path");
        assertThat(SafeLocation.of("http://h/\r\nX: y")).isEqualTo("http://h/??X: y");
        assertThat(SafeLocation.of("http://h/" + "a".repeat(500))).hasSize(SafeLocation.MAX_CHARS + 3);
    }

    @Test
    void aNonHttpLocationIsShownAsItsSchemeOnly() throws Exception {
        try (ScriptedServer redirector = ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 302 Found\r\n"
                + "Location: file:///etc/internal-secret.conf\r\nContent-Length: 0\r\n\r\n"));
             NettyProbeEngine probes = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                     .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null)) {
            TargetSpec target = Targets.target(Protocol.HTTP, "127.0.0.1", redirector.port(), Targets.GENEROUS_MS)
                    .withHttp(new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), true, Map.of(), null, false));
            ProbeReport report = probes.probe(target).get(15, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).isEqualTo("redirect to unsupported location: file:");
        }
    }

    @Test
    void anUndecodableResponseIsNotQuotedInTheDetail() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) ->
                srv.write(s, "SECRET-BANNER-v1 internal-db ready\r\n\r\n"))) {
            TargetSpec target = Targets.target(Protocol.HTTP, "127.0.0.1", server.port(), Targets.GENEROUS_MS)
                    .withHttp(Targets.get("/", null));
            ProbeReport report = engine.probe(target).get(15, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).doesNotContain("SECRET").doesNotContain("internal-db");
        }
    }
}
