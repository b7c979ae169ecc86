package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.SelfSignedTls;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

import static org.assertj.core.api.Assertions.assertThat;

class HttpsProberTest {

    private static NettyProbeEngine engine;
    private static SSLContext serverTls;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
        serverTls = SelfSignedTls.serverContext(dir);
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private static ProbeReport run(TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    private static TargetSpec https(int port, String host, boolean verify) {
        return Targets.target(Protocol.HTTPS, "127.0.0.1", port, Targets.GENEROUS_MS)
                .withHttp(new HttpSpec(HttpMethod.HEAD, "/", host, List.of("2xx"), false, Map.of(), null, verify));
    }

    private static ScriptedServer okServer(SelfSignedTls.RecordingSniMatcher sni) throws Exception {
        return ScriptedServer.https(serverTls, sni, (s, head, srv) ->
                srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    }

    @Test
    void selfSignedCertificateIsAcceptedWhenVerificationIsOff() throws Exception {
        SelfSignedTls.RecordingSniMatcher sni = new SelfSignedTls.RecordingSniMatcher();
        try (ScriptedServer server = okServer(sni)) {
            ProbeReport report = run(https(server.port(), "app.example.test", false));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.tlsMicros()).isNotNull().isPositive();
            assertThat(report.firstByteMicros()).isGreaterThan(report.connectMicros() + report.tlsMicros() - 1);
            assertThat(sni.names).containsExactly("app.example.test");
            assertThat(server.requests().get(0)).containsIgnoringCase("host: app.example.test:" + server.port());
            // keytool's two days, from when the certificate was made
            assertThat(report.certNotAfterMs()).isGreaterThan(System.currentTimeMillis() + TimeUnit.DAYS.toMillis(1))
                    .isLessThan(System.currentTimeMillis() + TimeUnit.DAYS.toMillis(2) + 60_000);
            assertThat(report.chainNotAfterMs()).isEqualTo(report.certNotAfterMs());
        }
    }

    @Test
    void aConditionReadsTheCertificatesDaysLeft() throws Exception {
        try (ScriptedServer server = okServer(new SelfSignedTls.RecordingSniMatcher())) {
            TargetSpec target = https(server.port(), "app.example.test", false);
            // keytool's two days, from when the certificate was made: one whole day left, or two just after
            assertThat(run(target.withCondition("tls.daysLeft >= 1 && tls.daysLeft <= 2")).outcome())
                    .isEqualTo(Outcome.SUCCESS);
            ProbeReport tooFew = run(target.withCondition("tls.daysLeft > 14"));
            assertThat(tooFew.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(tooFew.detail()).isEqualTo("condition false");
        }
    }

    @Test
    void aCertificateThatExpiresSoonerThanTheDefinitionAllowsFailsTheCheckBeforeTheRequest() throws Exception {
        SelfSignedTls.RecordingSniMatcher sni = new SelfSignedTls.RecordingSniMatcher();
        try (ScriptedServer server = okServer(sni)) {
            ProbeReport report = run(https(server.port(), null, false).withTls(new TlsSpec(false, null, null, 5)));
            assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
            assertThat(report.detail()).isEqualTo("TLS: the certificate expires in 1 days (minCertDaysLeft 5)");
            assertThat(report.certNotAfterMs()).isNotNull();
            // the handshake completed, so the server saw a connection; no request came over it
            assertThat(server.requests()).allSatisfy(request -> assertThat(request).doesNotContain("HEAD"));
        }
    }

    @Test
    void selfSignedCertificateIsATlsFailureWhenVerificationIsOn() throws Exception {
        SelfSignedTls.RecordingSniMatcher sni = new SelfSignedTls.RecordingSniMatcher();
        try (ScriptedServer server = okServer(sni)) {
            ProbeReport report = run(https(server.port(), "localhost", true));
            assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
            assertThat(report.detail()).isEqualTo("TLS: certificate not trusted (no path to a trusted issuer)");
            assertThat(report.certNotAfterMs()).isNull();
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void ipTargetWithoutHostSendsNoSni() throws Exception {
        SelfSignedTls.RecordingSniMatcher sni = new SelfSignedTls.RecordingSniMatcher();
        try (ScriptedServer server = okServer(sni)) {
            ProbeReport report = run(https(server.port(), null, false));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(sni.names).isEmpty();
            assertThat(server.requests().get(0)).containsIgnoringCase("host: 127.0.0.1:" + server.port());
        }
    }

    @Test
    void serverThatNeverCompletesTheHandshakeTimesOutInTheTlsPhase() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(10_000))) {
            TargetSpec target = Targets.target(Protocol.HTTPS, "127.0.0.1", server.port(), 800)
                    .withHttp(new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, Map.of(), null, false));
            ProbeReport report = Unstalled.check(() -> run(target));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.detail()).contains("TLS handshake");
            assertThat(report.connectMicros()).isNotNull();
            assertThat(report.tlsMicros()).isNull();
        }
    }

    @Test
    void plainHttpServerBehindHttpsTargetIsATlsFailure() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) ->
                srv.write(s, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport report = run(https(server.port(), null, false));
            assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
            assertThat(report.detail()).isEqualTo("TLS: not a TLS record (the server answered in plain text)");
        }
    }

    @Test
    void aPlainTextBannerNeverReachesTheDetail() throws Exception {
        String banner = "SSH-2.0-OpenSSH_9.2 internal-build-host-7\r\n";
        String hex = HexFormat.of().formatHex(banner.getBytes(StandardCharsets.US_ASCII), 0, 8);
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.write(s, banner))) {
            ProbeReport report = run(https(server.port(), null, false));
            assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
            assertThat(report.detail()).startsWith("TLS: ").doesNotContainIgnoringCase(hex)
                    .doesNotContain("SSH").doesNotContain("internal");
        }
    }

    @Test
    void redirectFromHttpToHttpsOnTheSameHostSwitchesToTls() throws Exception {
        SelfSignedTls.RecordingSniMatcher sni = new SelfSignedTls.RecordingSniMatcher();
        try (ScriptedServer tls = okServer(sni);
             ScriptedServer plain = ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 308 Permanent\r\n"
                     + "Location: https://127.0.0.1:" + tls.port() + "/secure\r\nContent-Length: 0\r\n\r\n"))) {
            TargetSpec target = Targets.http(plain.port(), Targets.GENEROUS_MS)
                    .withHttp(new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), true, Map.of(), null, false));
            ProbeReport report = run(target);
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.tlsMicros()).isNotNull();
            assertThat(tls.requests().get(0)).startsWith("HEAD /secure HTTP/1.1");
        }
    }
}
