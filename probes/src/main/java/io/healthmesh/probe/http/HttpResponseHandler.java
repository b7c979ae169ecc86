package io.healthmesh.probe.http;

import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.probe.ProbeContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

import javax.net.ssl.SSLHandshakeException;

/**
 * An HTTP probe's channel handler: sends the probe request once the connection (and TLS) is up, then hands what the
 * codec decodes to the hop's {@link HttpResponseJudge}. After a verdict, reading stops and the channel closes.
 */
final class HttpResponseHandler extends SimpleChannelInboundHandler<HttpObject> {

    private final ProbeContext probe;
    private final HttpHop hop;
    private final FullHttpRequest request;
    private final HttpResponseJudge judge;

    private boolean handshakeDone;
    /** Closes this hop's channel when a redirect hands the probe to its next hop. */
    private Runnable releaseChannel;

    HttpResponseHandler(ProbeContext probe, HttpHop hop, ExpectedStatuses expected, FullHttpRequest request,
                        int maxBodyBytes, int redirectsFollowed, HttpProber prober) {
        this.probe = probe;
        this.hop = hop;
        this.request = request;
        this.judge = new HttpResponseJudge(probe, hop, expected, maxBodyBytes, redirectsFollowed, prober);
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
                if (probe.tracing()) {
                    probe.fact("certificate", PeerCertificates.summary(ctx.pipeline().get(SslHandler.class)));
                }
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
        if (releaseChannel == null) {
            Channel channel = ctx.channel();
            releaseChannel = () -> probe.release(channel); // made once, not per decoded object
        }
        judge.onObject(msg, releaseChannel);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!judge.settled() && hop.tls() && !handshakeDone) {
            probe.fail(new SSLHandshakeException("connection closed during the TLS handshake"));
        }
        judge.onClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!judge.handedOff()) {
            probe.fail(cause);
        }
        ctx.close();
    }
}
