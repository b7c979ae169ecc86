package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.transport.ResponseByteCounter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP handler on its own, fed bytes by hand; no sockets, no clock. */
class HttpHandlersInEmbeddedChannelTest {

    private static EmbeddedChannel httpChannel(ProbeContext[] holder, TargetSpec target, int maxHeaderBytes) throws Exception {
        ProbeContext probe = ProbeFixtures.onOwnLoop(target);
        holder[0] = probe;
        HttpHop hop = new HttpHop(false, "127.0.0.1", InetAddress.getLoopbackAddress(), 8080, target.http().path());
        HttpResponseHandler handler = new HttpResponseHandler(probe, hop,
                ExpectedStatuses.parse(target.http().expectedStatuses()),
                HttpRequests.build(hop, target.http(), "healthmesh-healthcheck"), 5120, 0, null);
        return new EmbeddedChannel(new ResponseByteCounter(probe), new HttpClientCodec(4096, maxHeaderBytes, 8192), handler);
    }

    @Test
    void httpHandlerSendsTheRequestAndJudgesTheStatus() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        EmbeddedChannel channel = httpChannel(probe, Targets.http(8080, 2000), 16 * 1024);
        ByteBuf request = channel.readOutbound();
        assertThat(request.toString(StandardCharsets.ISO_8859_1)).startsWith("HEAD / HTTP/1.1\r\n")
                .containsIgnoringCase("host: 127.0.0.1:8080\r\n");
        request.release();
        channel.writeInbound(ProbeFixtures.ascii("HTTP/1.1 204 No Content\r\n\r\n"));
        ProbeReport report = ProbeFixtures.report(probe[0]).join();
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.httpStatus()).isEqualTo(204);
        assertThat(channel.isOpen()).isTrue(); // closing is the context's job for tracked channels
    }

    @Test
    void httpHandlerRejectsHeadersOverTheLimit() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        EmbeddedChannel channel = httpChannel(probe, Targets.http(8080, 2000), 1024);
        channel.writeInbound(ProbeFixtures.ascii("HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(2000) + "\r\n\r\n"));
        ProbeReport report = ProbeFixtures.report(probe[0]).join();
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).contains("TooLongHttpHeaderException");
        channel.finishAndReleaseAll();
    }

    @Test
    void httpHandlerFindsTextSplitAcrossReads() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        TargetSpec target = Targets.http(8080, 2000).withHttp(Targets.get("/status", "all-systems-go"));
        EmbeddedChannel channel = httpChannel(probe, target, 16 * 1024);
        channel.writeInbound(ProbeFixtures.ascii("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\nstate: all-sys"));
        assertThat(ProbeFixtures.report(probe[0])).isNotDone();
        channel.writeInbound(ProbeFixtures.ascii("tems-go, thank you......."));
        assertThat(ProbeFixtures.report(probe[0]).join().outcome()).isEqualTo(Outcome.SUCCESS);
        channel.finishAndReleaseAll();
    }

    @Test
    void httpHandlerReportsMissingTextAtTheEndOfAShortBody() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        TargetSpec target = Targets.http(8080, 2000).withHttp(Targets.get("/", "ready"));
        EmbeddedChannel channel = httpChannel(probe, target, 16 * 1024);
        channel.writeInbound(ProbeFixtures.ascii("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nstarting"));
        ProbeReport report = ProbeFixtures.report(probe[0]).join();
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("expected text not in the body (8 bytes)");
        channel.finishAndReleaseAll();
    }

    @Test
    void headWithBodyContainsIsRefusedBeforeSending() throws Exception {
        HttpSpec headWithBody = new HttpSpec(io.healthmesh.core.target.HttpMethod.HEAD, "/", null, List.of("2xx"),
                false, java.util.Map.of(), "ready", false);
        EmbeddedChannel loop = new EmbeddedChannel();
        ProbeContext probe = ProbeFixtures.on(loop.eventLoop(), Targets.http(8080, 2000).withHttp(headWithBody));
        new HttpProber(ProbeEngineConfig.defaults(), null, null).probe(probe, InetAddress.getLoopbackAddress());
        assertThat(ProbeFixtures.report(probe).join().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(ProbeFixtures.report(probe).join().detail()).contains("bodyContains needs method GET");
    }
}
