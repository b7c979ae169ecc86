package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.OpenDescriptors;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.transport.ChosenTransport;
import io.healthmesh.probe.transport.ProbeTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Plain HTTP on epoll without a channel ({@link ChannelFreeHttpExchange}) against the channel's path on NIO: the same request
 * bytes, and the same verdict (outcome, detail, status) for the same response bytes, well-formed or hostile; and
 * every check releases its socket however it ends. The probe behaviour itself is {@link HttpProberTest}'s, which runs
 * on both paths.
 */
class ChannelFreeHttpExchangeTest {

    private static NettyProbeEngine channelFree;
    private static NettyProbeEngine channel;

    @BeforeAll
    static void engines() {
        assumeTrue(ChosenTransport.isAvailable(ProbeTransport.EPOLL), "epoll is not available here");
        channelFree = engine(ProbeTransport.EPOLL);
        channel = engine(ProbeTransport.NIO);
    }

    @AfterAll
    static void close() {
        if (channelFree != null) {
            channelFree.close();
            channel.close();
        }
    }

    private static NettyProbeEngine engine(ProbeTransport transport) {
        return NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1).withTransport(transport), null);
    }

    @Test
    void theRequestBytesAreThoseNettysEncoderWritesOnAChannel() throws Exception {
        HttpHop v4 = new HttpHop(false, "app.example.test", InetAddress.getLoopbackAddress(), 8080, "/health?deep=1");
        HttpHop v6 = new HttpHop(false, "::1", InetAddress.getByName("::1"), 80, "/");
        HttpSpec head = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, Map.of(), null, false);
        HttpSpec get = new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false,
                Map.of("X-Team", "sre", "Accept", "application/json", "X-Accent", "caf\u00e9"), "ok", false);
        for (FullHttpRequest request : List.of(HttpRequests.build(v4, head, "healthmesh-healthcheck"),
                HttpRequests.build(v4, get, "healthmesh-healthcheck"), HttpRequests.build(v6, get, "ua", false))) {
            EmbeddedChannel encoder = new EmbeddedChannel(new HttpRequestEncoder());
            assertThat(encoder.writeOutbound(request.retainedDuplicate())).isTrue();
            ByteBuf expected = ByteBufAllocator.DEFAULT.buffer();
            for (ByteBuf part; (part = encoder.readOutbound()) != null; part.release()) {
                expected.writeBytes(part);
            }
            ByteBuf actual = ChannelFreeHttpExchange.requestBytes(ByteBufAllocator.DEFAULT, request);
            try {
                assertThat(ByteBufUtil.getBytes(actual)).as(expected.toString(StandardCharsets.ISO_8859_1))
                        .isEqualTo(ByteBufUtil.getBytes(expected));
            } finally {
                actual.release();
                expected.release();
                request.release();
                encoder.finishAndReleaseAll();
            }
        }
    }

    /** Response bytes (written, then the server closes) and what the probe asks: HEAD for status, GET with a needle. */
    private static Map<String, String> responses() {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("200, HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        r.put("503, HEAD", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
        r.put("no reason phrase, HEAD", "HTTP/1.1 204\r\n\r\n");
        r.put("unknown status, HEAD", "HTTP/1.1 999 Whatever\r\n\r\n");
        r.put("redirect not followed, HEAD", "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\n\r\n");
        r.put("100 then 204, HEAD", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n");
        r.put("103 then 200 with body, GET ok",
                "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        r.put("leading empty lines, HEAD", "\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        r.put("folded header, HEAD", "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n");
        r.put("bare LF line ends, HEAD", "HTTP/1.1 200 OK\nContent-Length: 0\n\n");
        r.put("letters for a status, HEAD", "HTTP/1.1 2OO OK\r\n\r\n");
        r.put("other protocol, HEAD", "ICE/1.0 200 OK\r\n\r\n");
        r.put("not HTTP at all, HEAD", "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n");
        r.put("junk without a line end, HEAD", "\u0001\u0002\u0003 binary junk");
        r.put("space in a header name, HEAD", "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n");
        r.put("two Content-Lengths, GET ok", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!");
        r.put("Content-Length not a number, GET ok", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nok");
        r.put("chunked, needle across chunks, GET needle",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nnee\r\n3\r\ndle\r\n0\r\n\r\n");
        r.put("chunked, bad chunk size, GET needle",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nneedle\r\n");
        r.put("chunked and Content-Length, GET needle",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 6\r\n\r\n6\r\nneedle\r\n0\r\n\r\n");
        r.put("body until close, GET needle", "HTTP/1.0 200 OK\r\n\r\nthe needle is here");
        r.put("body until close without it, GET needle", "HTTP/1.0 200 OK\r\n\r\nnothing here");
        r.put("body shorter than its length, GET needle", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
        r.put("closed in the headers, HEAD", "HTTP/1.1 200 OK\r\nX-A: 1\r\n");
        r.put("closed in the status line, HEAD", "HTTP/1.1 200");
        r.put("closed before a byte, HEAD", "");
        r.put("status line too long, HEAD", "HTTP/1.1 200 " + "x".repeat(5000) + "\r\n\r\n");
        r.put("headers too long, HEAD",
                "HTTP/1.1 200 OK\r\nX-Long: " + "y".repeat(ProbeEngineConfig.DEFAULT_MAX_HEADER_BYTES) + "\r\n\r\n");
        r.put("NUL in a header value, HEAD", "HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\nContent-Length: 0\r\n\r\n");
        return r;
    }

    @Test
    void theSameResponseBytesGetTheSameVerdictWithAndWithoutAChannel() throws Exception {
        for (Map.Entry<String, String> c : responses().entrySet()) {
            for (boolean trickled : new boolean[] {false, true}) {
                String name = c.getKey() + (trickled ? ", a byte at a time" : "");
                byte[] bytes = c.getValue().getBytes(StandardCharsets.ISO_8859_1);
                try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
                    s.setTcpNoDelay(true);
                    if (!trickled) {
                        srv.write(s, bytes);
                        return;
                    }
                    for (byte b : bytes) {
                        srv.write(s, new byte[] {b});
                    }
                })) {
                    TargetSpec target = Targets.http(server.port(), Targets.GENEROUS_MS);
                    if (c.getKey().endsWith("GET ok")) {
                        target = target.withHttp(Targets.get("/", "ok"));
                    } else if (c.getKey().endsWith("GET needle")) {
                        target = target.withHttp(Targets.get("/", "needle"));
                    }
                    ProbeReport without = run(channelFree, target);
                    ProbeReport with = run(channel, target);
                    assertThat(without.outcome()).as(name + ": " + without.detail() + " / " + with.detail())
                            .isEqualTo(with.outcome());
                    assertThat(without.detail()).as(name).isEqualTo(with.detail());
                    assertThat(without.httpStatus()).as(name).isEqualTo(with.httpStatus());
                    assertThat(without.connectMicros()).as(name).isNotNull();
                    if (bytes.length > 0) {
                        assertThat(without.firstByteMicros()).as(name).isNotNull();
                    }
                }
            }
        }
    }

    @Test
    void aRedirectToTheSameServerIsFollowedOnANewConnection() throws Exception {
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> srv.write(s, head.startsWith("HEAD /next ")
                ? "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
                : "HTTP/1.1 301 Moved\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n"))) {
            HttpSpec follow = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), true, Map.of(), null, false);
            OpenDescriptors before = OpenDescriptors.now();
            for (int i = 0; i < 50; i++) {
                ProbeReport report = run(channelFree,
                        Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(follow));
                assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
            }
            assertThat(server.connections()).isEqualTo(100);
            OpenDescriptors after = OpenDescriptors.now();
                assertThat(after.count()).as("descriptors opened meanwhile: %s", after.addedSince(before))
                        .isLessThanOrEqualTo(before.count() + 2);
        }
    }

    @Test
    void everyCheckReleasesItsSocketHoweverItEnds() throws Exception {
        burstOfEveryEnding(1); // the engine's own descriptors and first class loads before counting
        OpenDescriptors before = OpenDescriptors.now();
        burstOfEveryEnding(100);
        // the servers run in this process and close every socket they accepted when they close, so both counts are
        // taken with them closed; 510 checks opened a socket each, so a leak of even one per ending would show
        OpenDescriptors after = OpenDescriptors.now();
                assertThat(after.count()).as("descriptors opened meanwhile: %s", after.addedSince(before))
                        .isLessThanOrEqualTo(before.count() + 2);
    }

    private static void burstOfEveryEnding(int each) throws Exception {
        try (ScriptedServer ok = ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 200 OK\r\n\r\n"));
             ScriptedServer down = ScriptedServer.http((s, head, srv) -> srv.write(s, "HTTP/1.1 503 No\r\n\r\n"));
             ScriptedServer reset = ScriptedServer.http((s, head, srv) -> {
                 s.setSoLinger(true, 0);
                 s.close();
             });
             ScriptedServer silent = ScriptedServer.http((s, head, srv) -> srv.awaitClose(10_000));
             ScriptedServer endless = ScriptedServer.http((s, head, srv) -> {
                 srv.write(s, "HTTP/1.1 200 OK\r\n\r\n");
                 byte[] filler = new byte[8192];
                 Arrays.fill(filler, (byte) '.');
                 for (int i = 0; i < 10_000 && !srv.awaitClose(0); i++) {
                     srv.write(s, filler);
                 }
             })) {
            TargetSpec up = Targets.http(ok.port(), Targets.GENEROUS_MS);
            TargetSpec unhealthy = Targets.http(down.port(), Targets.GENEROUS_MS);
            TargetSpec refused = Targets.http(LoopbackPorts.closedPort(), Targets.GENEROUS_MS);
            TargetSpec resets = Targets.http(reset.port(), Targets.GENEROUS_MS);
            TargetSpec body = Targets.http(endless.port(), Targets.GENEROUS_MS).withHttp(Targets.get("/", "never"));
            TargetSpec timesOut = Targets.http(silent.port(), 300);
            List<CompletableFuture<ProbeReport>> reports = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                for (TargetSpec target : List.of(up, unhealthy, refused, resets, body)) {
                    reports.add(channelFree.probe(target));
                }
            }
            assertThat(outcomes(reports)).containsExactlyInAnyOrderEntriesOf(Map.of(
                    Outcome.SUCCESS, (long) each, Outcome.UNEXPECTED_STATUS, (long) each,
                    Outcome.CONNECTION_REFUSED, (long) each, Outcome.CONNECTION_RESET, (long) each,
                    Outcome.UNEXPECTED_RESPONSE, (long) each));
            // after the burst, so that its load does not stall the loop into INCONCLUSIVE loop-stall verdicts
            List<CompletableFuture<ProbeReport>> timeouts = new ArrayList<>();
            for (int i = 0; i < Math.min(each, 10); i++) {
                timeouts.add(channelFree.probe(timesOut));
            }
            // a silent server's check ends in TIMEOUT; on a starved machine the engine may instead call it the
            // prober's own trouble (INCONCLUSIVE, its loop stalled while the probe waited): either way it ended, and
            // its socket must be released, which is what this test counts
            outcomes(timeouts);
            for (CompletableFuture<ProbeReport> timeout : timeouts) {
                ProbeReport report = timeout.join();
                assertThat(report.outcome() == Outcome.TIMEOUT
                        || report.outcome() == Outcome.INCONCLUSIVE && report.detail().contains("event loop stalled"))
                        .as("%s: %s", report.outcome(), report.detail()).isTrue();
            }
            assertThat(channelFree.inFlight()).isZero();
        }
    }

    private static ProbeReport run(NettyProbeEngine engine, TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS);
    }

    private static Map<Outcome, Long> outcomes(List<CompletableFuture<ProbeReport>> reports) throws Exception {
        CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new))
                .get(Targets.GENEROUS_MS + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS);
        return reports.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(ProbeReport::outcome, Collectors.counting()));
    }

}
