package io.healthmesh.probe.grpc;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The call handler against a scripted HTTP/2 server: two embedded channels whose bytes are passed back and forth by
 * hand, the server a Netty HTTP/2 connection handler answering the call as each test says. For answers grpc-java's
 * server never gives.
 */
class GrpcCallHandlerTest {

    private static final TargetSpec TARGET = Targets.target(Protocol.GRPC, "127.0.0.1", 50051, 2_000);

    /** What the scripted server does with the call's stream once the request has ended. */
    private interface Answer extends BiConsumer<ServerSide, Integer> {
    }

    private static final class ServerSide {
        Http2ConnectionHandler handler;
        ChannelHandlerContext ctx;

        void headers(int stream, Http2Headers headers, boolean end) {
            handler.encoder().writeHeaders(ctx, stream, headers, 0, end, ctx.newPromise());
        }

        void data(int stream, ByteBuf data, boolean end) {
            handler.encoder().writeData(ctx, stream, data, 0, end, ctx.newPromise());
        }
    }

    private static ProbeReport call(Answer answer) {
        ProbeContext probe = ProbeFixtures.onOwnLoop(TARGET);
        GrpcCall call = new GrpcCall(false, "127.0.0.1:50051", "svc", "test", 8192);
        EmbeddedChannel client = new EmbeddedChannel(new GrpcCallHandler(probe, call));
        ServerSide side = new ServerSide();
        side.handler = new Http2ConnectionHandlerBuilder().connection(new DefaultHttp2Connection(true))
                .frameListener(new Http2FrameAdapter() {
                    @Override
                    public int onDataRead(ChannelHandlerContext ctx, int stream, ByteBuf data, int padding,
                                          boolean endOfStream) {
                        if (endOfStream) {
                            side.ctx = ctx;
                            answer.accept(side, stream);
                            ctx.flush();
                        }
                        return data.readableBytes() + padding;
                    }
                }).build();
        EmbeddedChannel server = new EmbeddedChannel(side.handler);
        for (int round = 0; round < 10 && !probe.isDone(); round++) {
            pass(client, server);
            pass(server, client);
        }
        ProbeReport report = ProbeFixtures.report(probe).getNow(null);
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        return report;
    }

    private static void pass(EmbeddedChannel from, EmbeddedChannel to) {
        for (Object out = from.readOutbound(); out != null; out = from.readOutbound()) {
            to.writeInbound(out);
        }
    }

    private static Http2Headers ok() {
        return new DefaultHttp2Headers().status("200").set("content-type", "application/grpc");
    }

    private static ByteBuf serving() {
        return Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 2, 0x08, 0x01});
    }

    @Test
    void aWellFormedServingAnswerIsASuccess() {
        ProbeReport report = call((s, stream) -> {
            s.headers(stream, ok(), false);
            s.data(stream, serving(), false);
            s.headers(stream, new DefaultHttp2Headers().set("grpc-status", "0"), true);
        });
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.httpStatus()).isEqualTo(200);
    }

    @Test
    void aTrailersOnlyAnswerCarriesItsStatusAndNeverItsMessage() {
        ProbeReport report = call((s, stream) -> s.headers(stream, ok().set("grpc-status", "14")
                .set("grpc-message", "secret backend detail"), true));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("grpc-status 14 UNAVAILABLE");
    }

    @Test
    void aResetCallNamesTheHttp2Error() {
        ProbeReport report = call((s, stream) -> s.handler.encoder().writeRstStream(s.ctx, stream,
                Http2Error.REFUSED_STREAM.code(), s.ctx.newPromise()));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("the server reset the call (HTTP/2 REFUSED_STREAM)");
    }

    @Test
    void aMessageLargerThanTheBoundEndsTheProbe() {
        ProbeReport report = call((s, stream) -> {
            s.headers(stream, ok(), false);
            s.data(stream, Unpooled.wrappedBuffer(new byte[GrpcCallHandler.MAX_MESSAGE_BYTES + 1]), false);
        });
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("the response message is larger than 1024 bytes");
    }

    @Test
    void aCallThatEndsWithoutTrailersIsAFailure() {
        ProbeReport report = call((s, stream) -> {
            s.headers(stream, ok(), false);
            s.data(stream, serving(), true);
        });
        assertThat(report.detail()).isEqualTo("the call ended without trailers (no grpc-status)");
    }

    @Test
    void anHttpErrorStatusIsNotGrpc() {
        ProbeReport report = call((s, stream) -> s.headers(stream, new DefaultHttp2Headers().status("503"), true));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
        assertThat(report.detail()).isEqualTo("HTTP status 503 (expected: 200 from a gRPC server)");
        assertThat(report.httpStatus()).isEqualTo(503);
    }
}
