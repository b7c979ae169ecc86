package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe behaviours that profiles and the probe source bring (docs/PROFILES.md, docs/PROBES.md): NLB's missing Host
 * header, EdgeOne's custom host header and last-response judging, the source address and the L4 marker.
 */
class ProfileProbesTest {

    private static NettyProbeEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    private static ProbeReport run(ProbeEngine on, TargetSpec target) throws Exception {
        return on.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    private static final ScriptedServer.Script OK = (socket, head, server) ->
            server.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

    @Test
    void nlbWithoutADomainSendsNoHostHeader() throws Exception {
        try (ScriptedServer server = ScriptedServer.http(OK)) {
            TargetSpec generic = Targets.http(server.port(), Targets.GENEROUS_MS);
            assertThat(run(engine, generic).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(server.requests().get(0).toLowerCase()).contains("\nhost: 127.0.0.1:" + server.port());

            TargetSpec nlb = generic.withProfile(TargetProfile.ALIBABA_NLB);
            assertThat(run(engine, nlb).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(server.requests().get(1).toLowerCase()).doesNotContain("host:");

            TargetSpec nlbWithDomain = nlb.withHttp(new HttpSpec(HttpMethod.HEAD, "/", "shop.example.com",
                    List.of("2xx"), false, Map.of(), null, false));
            assertThat(run(engine, nlbWithDomain).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(server.requests().get(2).toLowerCase()).contains("\nhost: shop.example.com:" + server.port());
        }
    }

    @Test
    void edgeOneSendsItsCustomHostHeaderAsTheDomain() throws Exception {
        try (ScriptedServer server = ScriptedServer.http(OK)) {
            TargetSpec edge = Targets.http(server.port(), Targets.GENEROUS_MS)
                    .withProfile(TargetProfile.TENCENT_EDGEONE)
                    .withHttp(new HttpSpec(HttpMethod.HEAD, "/test", null, List.of("2xx"), false,
                            Map.of("host", "www.example.com"), null, false));
            assertThat(run(engine, edge).outcome()).isEqualTo(Outcome.SUCCESS);
            String head = server.requests().get(0).toLowerCase();
            assertThat(head).contains("\nhost: www.example.com:" + server.port());
            assertThat(head.split("\nhost:", -1)).as("one Host header").hasSize(2);
        }
    }

    @Test
    void edgeOneJudgesTheLastResponseAtTheRedirectLimitWhereGenericFails() throws Exception {
        ScriptedServer.Script redirect = (socket, head, server) -> server.write(socket,
                "HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        HttpSpec follow3xx = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("3xx"), true, Map.of(), null, false);
        try (ScriptedServer server = ScriptedServer.http(redirect)) {
            TargetSpec generic = Targets.http(server.port(), Targets.GENEROUS_MS).withHttp(follow3xx);
            ProbeReport tooMany = run(engine, generic);
            assertThat(tooMany.outcome()).isEqualTo(Outcome.TOO_MANY_REDIRECTS);

            TargetSpec edge = generic.withProfile(TargetProfile.TENCENT_EDGEONE);
            long before = server.connections();
            ProbeReport judged = run(engine, edge);
            assertThat(judged.outcome()).as(judged.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(judged.httpStatus()).isEqualTo(302);
            assertThat(server.connections() - before).as("first request and 3 hops").isEqualTo(4);

            TargetSpec edge2xx = edge.withHttp(new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), true,
                    Map.of(), null, false));
            assertThat(run(engine, edge2xx).outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
        }
    }

    @Test
    void probesLeaveFromTheConfiguredSourceAddressAndCarryTheL4Marker() throws Exception {
        InetAddress source = InetAddress.getByName("127.0.0.2");
        CompletableFuture<InetAddress> seenFrom = new CompletableFuture<>();
        CompletableFuture<String> marker = new CompletableFuture<>();
        ScriptedServer.Script record = (socket, head, server) -> {
            seenFrom.complete(socket.getInetAddress());
            InputStream in = socket.getInputStream();
            byte[] got = in.readNBytes(12);
            marker.complete(new String(got, StandardCharsets.US_ASCII));
        };
        try (ScriptedServer server = ScriptedServer.raw(record);
             NettyProbeEngine marked = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1),
                     null, new ProbeSource(source, "HEALTH CHECK"))) {
            ProbeReport report = run(marked, Targets.tcp(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(seenFrom.get(10, TimeUnit.SECONDS)).isEqualTo(source);
            assertThat(marker.get(10, TimeUnit.SECONDS)).isEqualTo("HEALTH CHECK");
        }
    }

    @Test
    void aMarkerIsPrintableAsciiOfAtMost64Characters() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ProbeSource(null, "x".repeat(65)))
                .hasMessageContaining("l4Marker");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ProbeSource(null, "a\nb"))
                .hasMessageContaining("l4Marker");
        assertThat(new ProbeSource(null, null).l4Marker()).isEmpty();
    }
}
