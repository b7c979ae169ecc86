package io.healthmesh.probe.grpc;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.tls.HandshakeFacts;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AsciiString;

import javax.net.ssl.SSLHandshakeException;

/**
 * A GRPC probe's channel handler: once the connection (and TLS, with {@code h2} agreed by ALPN) is up, puts Netty's
 * HTTP/2 connection handler in front of itself, sends the one health call on the first stream and reads its answer
 * as the codec reports frames ({@link Frames}), the message into a small buffer for the {@link HealthCallJudge}. A
 * response message larger than {@value #MAX_MESSAGE_BYTES} bytes ends the probe. The connection handler, not a frame
 * codec with stream objects: one call needs no stream bookkeeping.
 */
final class GrpcCallHandler extends ChannelInboundHandlerAdapter {

    /** The framed answer is 7 bytes; room for fields a newer server may add, and nothing like a body. */
    static final int MAX_MESSAGE_BYTES = 1024;

    /** The detail when the server never sent HTTP/2's first frame: what an HTTP/1-only server does. */
    static final String NOT_HTTP2 = "no HTTP/2 SETTINGS frame from the server: not an HTTP/2 server (an HTTP/1-only"
            + " server?)";

    static final AsciiString PATH = AsciiString.cached("/grpc.health.v1.Health/Check");
    private static final AsciiString GRPC = AsciiString.cached("application/grpc");
    private static final AsciiString TRAILERS = AsciiString.cached("trailers");
    private static final AsciiString TE = AsciiString.cached("te");
    private static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
    private static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
    private static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    private static final AsciiString USER_AGENT = AsciiString.cached("user-agent");

    private final ProbeContext probe;
    private final GrpcCall call;
    private Http2ConnectionHandler connection;
    private int streamId;
    private ByteBuf message;
    private boolean handshakeDone;
    private boolean settingsSeen;
    private boolean headersSeen;

    GrpcCallHandler(ProbeContext probe, GrpcCall call) {
        this.probe = probe;
        this.call = call;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!call.tls()) {
            start(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (!done.isSuccess()) {
                probe.fail(done.cause());
            } else {
                handshakeDone = true;
                probe.tlsDone();
                SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                if (HandshakeFacts.record(probe, ssl)) {
                    if (ApplicationProtocolNames.HTTP_2.equals(ssl.applicationProtocol())) {
                        start(ctx);
                    } else {
                        probe.finish(Outcome.UNEXPECTED_RESPONSE,
                                "TLS: the server did not agree to HTTP/2 (no h2 by ALPN): not a gRPC server");
                    }
                }
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** Puts the HTTP/2 codec in (it sends the connection preface) and sends the call on the first stream. */
    private void start(ChannelHandlerContext ctx) {
        if (probe.isDone()) {
            return;
        }
        probe.phase("HTTP/2 call, awaiting grpc-status");
        connection = call.newConnectionHandler(new Frames());
        ctx.pipeline().addBefore(ctx.name(), "h2", connection);
        ChannelHandlerContext h2 = ctx.pipeline().context(connection);
        streamId = connection.connection().local().incrementAndGetNextStreamId();
        Http2Headers headers = new DefaultHttp2Headers(false, 8)
                .method("POST").scheme(call.tls() ? "https" : "http").path(PATH).authority(call.authority())
                .add(CONTENT_TYPE, GRPC).add(TE, TRAILERS).add(USER_AGENT, call.userAgent())
                .add(GRPC_TIMEOUT, probe.target().timeoutMs() + "m");
        connection.encoder().writeHeaders(h2, streamId, headers, 0, false, h2.newPromise());
        connection.encoder().writeData(h2, streamId, HealthMessages.request(ctx.alloc(), call.service()), 0, true,
                h2.newPromise()).addListener((ChannelFuture f) -> {
                    if (!f.isSuccess()) {
                        probe.fail(f.cause());
                    }
                });
        h2.flush();
    }

    /** What the HTTP/2 codec read, as it reads it; ignored once the probe has its verdict. */
    private final class Frames extends Http2FrameAdapter {

        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
            settingsSeen = true;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int stream, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            if (stream == streamId && !probe.isDone()) {
                onHeaders(headers, endOfStream);
            }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int stream, Http2Headers headers, int streamDependency,
                                  short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, stream, headers, padding, endOfStream);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int stream, ByteBuf data, int padding, boolean endOfStream) {
            if (stream == streamId && !probe.isDone()) {
                onData(data, endOfStream);
            }
            return data.readableBytes() + padding;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int stream, long errorCode) {
            if (stream == streamId) {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "the server reset the call (HTTP/2 " + errorName(errorCode)
                        + ")");
            }
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            if (lastStreamId < streamId) {
                // the call was not processed; the debug data is the server's text and is not read
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "the server refused the call (HTTP/2 GOAWAY "
                        + errorName(errorCode) + ")");
            }
        }
    }

    private void onHeaders(Http2Headers headers, boolean endOfStream) {
        if (!headersSeen) {
            headersSeen = true;
            int status = httpStatus(headers.status());
            if (status > 0) {
                probe.httpStatus(status);
            }
            HealthCallJudge.Verdict early = HealthCallJudge.headers(status, headers.get(CONTENT_TYPE));
            if (early != null) {
                probe.finish(early.outcome(), early.detail());
                return;
            }
            if (!endOfStream) {
                return;
            }
            // trailers-only: the status is in these headers
        }
        HealthCallJudge.Verdict verdict = HealthCallJudge.trailers(headers.get(GRPC_STATUS), messageOrEmpty());
        if (verdict.servingStatus() != null) {
            probe.facts().grpcStatus(verdict.servingStatus());
        }
        probe.finish(verdict.outcome(), verdict.detail());
    }

    private void onData(ByteBuf content, boolean endOfStream) {
        int total = (message == null ? 0 : message.readableBytes()) + content.readableBytes();
        if (total > MAX_MESSAGE_BYTES) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "the response message is larger than " + MAX_MESSAGE_BYTES
                    + " bytes");
            return;
        }
        if (content.isReadable()) {
            if (message == null) {
                message = content.alloc().buffer(Math.max(total, HealthMessages.PREFIX_BYTES + 2));
            }
            message.writeBytes(content, content.readerIndex(), content.readableBytes());
        }
        if (endOfStream) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "the call ended without trailers (no grpc-status)");
        }
    }

    private ByteBuf messageOrEmpty() {
        return message == null ? Unpooled.EMPTY_BUFFER : message;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!probe.isDone()) {
            if (call.tls() && !handshakeDone) {
                probe.fail(new SSLHandshakeException("connection closed during the TLS handshake"));
            } else if (!settingsSeen) {
                // the codec answered a first frame that is not SETTINGS with a GOAWAY and closed the connection
                probe.finish(Outcome.UNEXPECTED_RESPONSE, NOT_HTTP2);
            } else {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "connection closed before the call's grpc-status");
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (message != null) {
            message.release();
            message = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Http2Exception h2 = http2Exception(cause);
        if (h2 == null) {
            probe.fail(cause);
        } else if (!settingsSeen) {
            // the codec's text quotes the first bytes received: only the kind of failure is said
            probe.finish(Outcome.UNEXPECTED_RESPONSE, NOT_HTTP2);
        } else {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "HTTP/2 protocol error (" + h2.error().name() + ")");
        }
        ctx.close();
    }

    private static Http2Exception http2Exception(Throwable cause) {
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof Http2Exception e) {
                return e;
            }
        }
        return null;
    }

    private static String errorName(long code) {
        Http2Error error = Http2Error.valueOf(code);
        return error == null ? "error " + code : error.name();
    }

    private static int httpStatus(CharSequence status) {
        if (status == null || status.length() != 3) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < 3; i++) {
            char c = status.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
