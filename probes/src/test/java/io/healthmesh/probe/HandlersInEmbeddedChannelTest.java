package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.http.HttpClientCodec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The protocol handlers on their own, fed bytes by hand; no sockets, no clock. */
class HandlersInEmbeddedChannelTest {

    private static ProbeContext probe(EmbeddedChannel channel, TargetSpec target) {
        return new ProbeContext(target, channel.eventLoop(), System.nanoTime());
    }

    /** A context on an embedded loop of its own, for handlers that must be in place before the channel is active. */
    private static ProbeContext probe(TargetSpec target) {
        return probe(new EmbeddedChannel(), target);
    }

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    }

    private static EmbeddedChannel httpChannel(ProbeContext[] holder, TargetSpec target, int maxHeaderBytes) throws Exception {
        ProbeContext probe = probe(target);
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
        channel.writeInbound(ascii("HTTP/1.1 204 No Content\r\n\r\n"));
        ProbeReport report = probe[0].result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.httpStatus()).isEqualTo(204);
        assertThat(channel.isOpen()).isTrue(); // closing is the context's job for tracked channels
    }

    @Test
    void httpHandlerRejectsHeadersOverTheLimit() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        EmbeddedChannel channel = httpChannel(probe, Targets.http(8080, 2000), 1024);
        channel.writeInbound(ascii("HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(2000) + "\r\n\r\n"));
        ProbeReport report = probe[0].result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).contains("TooLongHttpHeaderException");
        channel.finishAndReleaseAll();
    }

    @Test
    void httpHandlerFindsTextSplitAcrossReads() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        TargetSpec target = Targets.http(8080, 2000).withHttp(Targets.get("/status", "all-systems-go"));
        EmbeddedChannel channel = httpChannel(probe, target, 16 * 1024);
        channel.writeInbound(ascii("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\nstate: all-sys"));
        assertThat(probe[0].result()).isNotDone();
        channel.writeInbound(ascii("tems-go, thank you......."));
        assertThat(probe[0].result().join().outcome()).isEqualTo(Outcome.SUCCESS);
        channel.finishAndReleaseAll();
    }

    @Test
    void httpHandlerReportsMissingTextAtTheEndOfAShortBody() throws Exception {
        ProbeContext[] probe = new ProbeContext[1];
        TargetSpec target = Targets.http(8080, 2000).withHttp(Targets.get("/", "ready"));
        EmbeddedChannel channel = httpChannel(probe, target, 16 * 1024);
        channel.writeInbound(ascii("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nstarting"));
        ProbeReport report = probe[0].result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("expected text not in the body (8 bytes)");
        channel.finishAndReleaseAll();
    }

    @Test
    void headWithBodyContainsIsRefusedBeforeSending() throws Exception {
        HttpSpec headWithBody = new HttpSpec(io.healthmesh.core.target.HttpMethod.HEAD, "/", null, List.of("2xx"),
                false, java.util.Map.of(), "ready", false);
        EmbeddedChannel loop = new EmbeddedChannel();
        ProbeContext probe = probe(loop, Targets.http(8080, 2000).withHttp(headWithBody));
        new HttpProber(ProbeEngineConfig.defaults(), null, null).probe(probe, InetAddress.getLoopbackAddress());
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(probe.result().join().detail()).contains("bodyContains needs method GET");
    }

    @Test
    void tcpHandlerSendsThePayloadAndMatchesTheResponse() throws Exception {
        ProbeContext probe = probe(Targets.tcp(6379, 2000).withTcp(new TcpSpec("PING\r\n", "+PONG")));
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseByteCounter(probe),
                new TcpExchangeHandler(probe, probe.target().tcp(), 5120));
        ByteBuf sent = channel.readOutbound();
        assertThat(sent.toString(StandardCharsets.UTF_8)).isEqualTo("PING\r\n");
        sent.release();
        channel.writeInbound(ascii("+PO"));
        assertThat(probe.result()).isNotDone();
        channel.writeInbound(ascii("NG\r\n"));
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(probe.result().join().bytesRead()).isEqualTo(7);
    }

    @Test
    void udpHandlerJudgesDatagramsAndPortUnreachable() {
        InetSocketAddress peer = new InetSocketAddress(InetAddress.getLoopbackAddress(), 53);
        EmbeddedChannel right = new EmbeddedChannel();
        ProbeContext ok = probe(right, Targets.tcp(53, 2000));
        right.pipeline().addLast(new UdpResponseHandler(ok, "PONG"));
        right.writeInbound(new DatagramPacket(ascii("PONG!"), peer, peer));
        assertThat(ok.result().join().outcome()).isEqualTo(Outcome.SUCCESS);

        EmbeddedChannel wrong = new EmbeddedChannel();
        ProbeContext bad = probe(wrong, Targets.tcp(53, 2000));
        wrong.pipeline().addLast(new UdpResponseHandler(bad, "PONG"));
        wrong.writeInbound(new DatagramPacket(ascii("NOPE"), peer, peer));
        assertThat(bad.result().join().outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);

        EmbeddedChannel closed = new EmbeddedChannel();
        ProbeContext unreachable = probe(closed, Targets.tcp(53, 2000));
        closed.pipeline().addLast(new UdpResponseHandler(unreachable, null));
        closed.pipeline().fireExceptionCaught(new PortUnreachableException("ICMP Port Unreachable"));
        assertThat(unreachable.result().join().outcome()).isEqualTo(Outcome.PORT_UNREACHABLE);
    }
}
