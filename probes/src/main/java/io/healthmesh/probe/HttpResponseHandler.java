package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

import javax.net.ssl.SSLHandshakeException;
import java.nio.charset.StandardCharsets;

/**
 * Sends the probe request once the connection (and TLS) is up, then judges the response: a redirect is handed
 * back to {@link HttpProber} when redirects are on, the status is checked against the expected set, and with
 * {@code bodyContains} the body is searched up to the byte limit, after which reading stops and the connection
 * closes. A response the codec could not decode within its bounds (over-long headers) is {@code UNEXPECTED_RESPONSE}.
 */
final class HttpResponseHandler extends SimpleChannelInboundHandler<HttpObject> {

    private final ProbeContext probe;
    private final HttpHop hop;
    private final ExpectedStatuses expected;
    private final FullHttpRequest request;
    private final ByteWindow body;
    private final int redirectsFollowed;
    private final HttpProber prober;

    private boolean handshakeDone;
    private boolean handedOff;
    private boolean readingBody;
    private int status;

    HttpResponseHandler(ProbeContext probe, HttpHop hop, ExpectedStatuses expected, FullHttpRequest request,
                        int maxBodyBytes, int redirectsFollowed, HttpProber prober) {
        this.probe = probe;
        this.hop = hop;
        this.expected = expected;
        this.request = request;
        String bodyContains = probe.target().http().bodyContains();
        this.body = bodyContains == null ? null : new ByteWindow(maxBodyBytes, bodyContains.getBytes(StandardCharsets.UTF_8));
        this.redirectsFollowed = redirectsFollowed;
        this.prober = prober;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!hop.tls()) {
            send(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                handshakeDone = true;
                probe.tlsDone();
                send(ctx);
            } else {
                probe.fail(done.cause());
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void send(ChannelHandlerContext ctx) {
        if (probe.isDone()) {
            return;
        }
        probe.phase("awaiting response");
        ctx.writeAndFlush(request).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                probe.fail(f.cause());
            }
        });
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (probe.isDone() || handedOff) {
            return;
        }
        if (msg.decoderResult().isFailure()) {
            // the type only: a decoder's message may quote the response's bytes, and details never carry them
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "undecodable response: "
                    + rootType(msg.decoderResult().cause()));
            return;
        }
        if (msg instanceof HttpResponse response) {
            onHeaders(ctx, response);
        }
        if (readingBody && msg instanceof HttpContent content) {
            onBody(content);
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, HttpResponse response) {
        status = response.status().code();
        if (status == 100 || status == 103) {
            return; // informational: the final response follows on the same connection
        }
        probe.httpStatus(status);
        String location = response.headers().get(HttpHeaderNames.LOCATION);
        boolean judgeThisOne = probe.target().profile().judgesLastResponseAtRedirectLimit()
                && redirectsFollowed >= prober.maxRedirects();
        if (probe.target().http().followRedirects() && isRedirect(status) && location != null && !judgeThisOne) {
            handedOff = true;
            prober.followRedirect(probe, hop, location, expected, redirectsFollowed, ctx.channel());
            return;
        }
        if (!expected.matches(status)) {
            probe.finish(Outcome.UNEXPECTED_STATUS, "status " + status + " (expected: " + expected + ")");
            return;
        }
        if (body == null) {
            probe.succeed("status " + status);
            return;
        }
        readingBody = true;
        probe.phase("reading body");
    }

    private void onBody(HttpContent content) {
        if (body.append(content.content())) {
            probe.succeed("status " + status + ", body contains expected text");
        } else if (body.isFull()) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "expected text not in the first " + body.size() + " body bytes");
        } else if (content instanceof LastHttpContent) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "expected text not in the body (" + body.size() + " bytes)");
        }
    }

    private static String rootType(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && depth < 8; depth++) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!probe.isDone() && !handedOff) {
            if (hop.tls() && !handshakeDone) {
                probe.fail(new SSLHandshakeException("connection closed during the TLS handshake"));
            } else {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, status == 0 ? "connection closed before a response"
                        : "connection closed before the response was judged");
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!handedOff) {
            probe.fail(cause);
        }
        ctx.close();
    }
}
