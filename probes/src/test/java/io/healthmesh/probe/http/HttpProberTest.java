package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import io.healthmesh.probe.transport.ChosenTransport;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.healthmesh.probe.transport.ProbeTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * HTTP probes on the engine's default transport: epoll here, where plain HTTP runs without a channel
 * ({@link ChannelFreeHttpExchange}). {@link HttpProberOnNioTest} runs every test again through a Netty channel.
 */
class HttpProberTest {

    private static final String OK_EMPTY = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    static NettyProbeEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(2), null);
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    @Test
    void theseTestsRunOnTheDefaultTransport() {
        assumeTrue(getClass() == HttpProberTest.class, "a subclass chooses its own transport");
        assertThat(engine.transport().kind()).isEqualTo(ChosenTransport.isAvailable(ProbeTransport.EPOLL)
                ? ProbeTransport.EPOLL : ProbeTransport.NIO);
    }

    static ProbeReport run(TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    /** {@link #run} for a check that should time out: again while its event loop stalled ({@link Unstalled}). */
    static ProbeReport runTimingOut(TargetSpec target) throws Exception {
        return Unstalled.check(() -> run(target));
    }

    @Test
    void headRequestWithIdentifyingHeadersAndIpHostSucceeds() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> srv.write(s, OK_EMPTY))) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.httpStatus()).isEqualTo(200);
            assertThat(report.connectMicros()).isNotNull();
            assertThat(report.firstByteMicros()).isNotNull().isGreaterThanOrEqualTo(report.connectMicros());
            String head = server.requests().get(0);
            assertThat(head).startsWith("HEAD / HTTP/1.1\r\n")
                    .containsIgnoringCase("host: 127.0.0.1:" + server.port() + "\r\n")
                    .containsIgnoringCase("user-agent: healthmesh-healthcheck\r\n")
                    .containsIgnoringCase("connection: close\r\n");
        }
    }

    @Test
    void configuredHostPathAndCustomHeadersAreSent() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> srv.write(s, OK_EMPTY))) {
            HttpSpec spec = new HttpSpec(HttpMethod.GET, "/health?deep=1", "app.example.test", List.of("200"), false,
                    Map.of("X-Probe-Team", "sre", "User-Agent", "spoofed", "Metadata-Flavor", "Google"), null, false);
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(spec));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            String head = server.requests().get(0);
            assertThat(head).startsWith("GET /health?deep=1 HTTP/1.1\r\n")
                    .containsIgnoringCase("host: app.example.test:" + server.port() + "\r\n")
                    .containsIgnoringCase("x-probe-team: sre\r\n")
                    .containsIgnoringCase("user-agent: healthmesh-healthcheck\r\n")
                    .doesNotContain("spoofed")
                    .doesNotContainIgnoringCase("metadata-flavor"); // a metadata header is never sent
        }
    }

    @Test
    void unexpectedStatusCarriesTheStatus() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) ->
                srv.write(s, "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
            assertThat(report.httpStatus()).isEqualTo(503);
            assertThat(report.detail()).contains("503").contains("2xx");
        }
    }

    @Test
    void exactCodesAndClassesAreBothHonoured() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) ->
                srv.write(s, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))) {
            HttpSpec accepts404 = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx", "404"), false, Map.of(), null, false);
            HttpSpec only200 = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("200"), false, Map.of(), null, false);
            assertThat(run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(accepts404)).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(only200)).outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
        }
    }

    @Test
    void redirectIsJudgedAsIsWhenRedirectsAreOff() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) ->
                srv.write(s, "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
            assertThat(report.httpStatus()).isEqualTo(302);
            assertThat(server.connections()).isEqualTo(1);
        }
    }

    /** {@code /hop/N} redirects to {@code /hop/N-1} (relative, with a rotating status); {@code /hop/0} answers 200. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void redirectChainsUpToThreeHopsAreFollowedAndTheFourthIsTooMany(int hops) throws Exception {
        int[] statuses = {301, 302, 307, 308, 303};
        Pattern path = Pattern.compile("^HEAD /hop/(\\d+) ");
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            Matcher m = path.matcher(head);
            int left = m.find() ? Integer.parseInt(m.group(1)) : -1;
            if (left > 0) {
                srv.write(s, "HTTP/1.1 " + statuses[left % statuses.length] + " Moved\r\nLocation: /hop/" + (left - 1)
                        + "\r\nContent-Length: 0\r\n\r\n");
            } else {
                srv.write(s, left == 0 ? OK_EMPTY : "HTTP/1.1 400 Bad\r\nContent-Length: 0\r\n\r\n");
            }
        })) {
            HttpSpec follow = new HttpSpec(HttpMethod.HEAD, "/hop/" + hops, null, List.of("2xx"), true, Map.of(), null, false);
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(follow));
            if (hops <= 3) {
                assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(report.httpStatus()).isEqualTo(200);
                assertThat(server.connections()).isEqualTo(hops + 1);
            } else {
                assertThat(report.outcome()).isEqualTo(Outcome.TOO_MANY_REDIRECTS);
                assertThat(server.connections()).isEqualTo(4);
            }
            assertThat(server.requests()).allSatisfy(h -> assertThat(h).containsIgnoringCase("connection: close"));
        }
    }

    @Test
    void absoluteRedirectToAnotherServerIsFollowed() throws Exception {
        try (ScriptedServer second = ScriptedServer.http((s, head, srv) -> srv.write(s, OK_EMPTY));
             ScriptedServer first = ScriptedServer.http((s, head, srv) -> srv.write(s,
                     "HTTP/1.1 301 Moved\r\nLocation: http://localhost:" + second.port() + "/new\r\nContent-Length: 0\r\n\r\n"))) {
            HttpSpec follow = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), true, Map.of(), null, false);
            ProbeReport report = run(Targets.http(first.port(), Targets.GENEROUS_MS).withHttp(follow));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(second.requests().get(0)).startsWith("HEAD /new HTTP/1.1")
                    .containsIgnoringCase("host: localhost:" + second.port());
        }
    }

    @Test
    void redirectToDeniedAddressIsBlockedByPolicy() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> srv.write(s,
                "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\nContent-Length: 0\r\n\r\n"))) {
            HttpSpec follow = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), true, Map.of(), null, false);
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(follow));
            assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
            assertThat(report.detail()).contains("169.254.169.254").contains("169.254.0.0/16");
        }
    }

    @Test
    void bodyContainsFoundInTheFirstBytesSucceedsWithoutReadingTheRest() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n<html>status: ready</html>");
            writeFiller(s, srv, 100 * 1024 * 1024);
        })) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(Targets.get("/", "status: ready")));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.bytesRead()).isLessThan(4096 + 4096);
        }
    }

    @Test
    void hugeBodyIsReadOnlyUpToTheBodyLimit() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n");
            writeFiller(s, srv, 100 * 1024 * 1024);
        })) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(Targets.get("/", "never-there")));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).contains("first 5120 body bytes");
            assertThat(report.bytesRead()).isLessThanOrEqualTo(
                    100 + ProbeEngineConfig.DEFAULT_MAX_BODY_BYTES + ProbeBootstraps.READ_BUFFER_BYTES);
        }
    }

    @Test
    void textBeyondTheSearchWindowIsNotFound() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            byte[] body = new byte[6000];
            Arrays.fill(body, (byte) '.');
            System.arraycopy("needle".getBytes(), 0, body, 5500, 6);
            srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 6000\r\n\r\n");
            srv.write(s, body);
        })) {
            assertThat(run(Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(Targets.get("/", "needle"))).outcome())
                    .isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        }
    }

    @Test
    void endlessHeadersStopAtTheHeaderLimit() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            srv.write(s, "HTTP/1.1 200 OK\r\n");
            for (int i = 0; i < 1_000_000; i++) {
                srv.write(s, "X-Filler-" + i + ": aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
            }
        })) {
            ProbeReport report = run(Targets.http(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.bytesRead()).isLessThanOrEqualTo(
                    ProbeEngineConfig.DEFAULT_MAX_HEADER_BYTES + 2L * ProbeBootstraps.READ_BUFFER_BYTES);
        }
    }

    @Test
    void tricklingServerEndsByTheDeadline() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            byte[] response = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes();
            for (int i = 0; i < response.length && !srv.awaitClose(1000); i++) {
                srv.write(s, new byte[] {response[i]});
            }
        })) {
            ProbeReport report = runTimingOut(Targets.http(server.port(), 1500));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.detail()).contains("awaiting response");
            assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(1500 + Targets.DEADLINE_SLACK_MS));
            assertThat(report.bytesRead()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void serverThatNeverAnswersTimesOut() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> srv.awaitClose(10_000))) {
            ProbeReport report = runTimingOut(Targets.http(server.port(), 800));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.connectMicros()).isNotNull();
            assertThat(report.firstByteMicros()).isNull();
        }
    }

    @Test
    void refusedConnectionFailsAtOnce() throws Exception {
        ProbeReport report = run(Targets.http(LoopbackPorts.closedPort(), Targets.GENEROUS_MS));
        assertThat(report.outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(Targets.GENEROUS_MS / 2));
    }

    @Test
    void connectionClosedWithoutResponseIsUnexpectedResponse() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> s.shutdownOutput())) {
            assertThat(run(Targets.http(server.port(), Targets.GENEROUS_MS)).outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        }
    }

    @Test
    void resetConnectionIsConnectionReset() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            s.setSoLinger(true, 0);
            s.close();
        })) {
            assertThat(run(Targets.http(server.port(), Targets.GENEROUS_MS)).outcome()).isEqualTo(Outcome.CONNECTION_RESET);
        }
    }

    private static void writeFiller(Socket s, ScriptedServer srv, long total) throws java.io.IOException {
        byte[] chunk = new byte[16 * 1024];
        Arrays.fill(chunk, (byte) 'a');
        for (long sent = 0; sent < total; sent += chunk.length) {
            srv.write(s, chunk);
        }
    }
}
