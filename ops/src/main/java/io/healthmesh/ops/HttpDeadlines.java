package io.healthmesh.ops;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The three deadlines of one HTTP connection. Idle: from the connection's start, or from the end of the last
 * answer, the next request's first byte must come within the idle timeout. Request: from a request's first byte,
 * its last must come within the request timeout, however slowly the bytes trickle in (a slow-loris client is cut
 * off, it cannot keep a connection forever by sending a byte now and then). Answer: while a request is being
 * handled, some byte of its answer must be written within the answer timeout of the request's end or of the last
 * write (a handler that never answers, or fails without answering, cannot keep the connection; a stream that
 * writes now and then runs on). Any one expiring closes the connection. A connection of the probe reserve
 * ({@link ConnectionCap#probeOnly}) has {@link HttpLimits#PROBE_DEADLINE} for all three.
 *
 * <p>Two handlers share the state: {@link #bytes()} goes first in the pipeline (it sees raw bytes arrive),
 * {@link #messages()} after the HTTP codec (it sees a request end and an answer leave). Every method runs on the
 * channel's event loop.
 */
public final class HttpDeadlines {

    private enum State { IDLE, READING, HANDLING }

    private long idleNanos;
    private long requestNanos;
    private long answerNanos;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;

    public HttpDeadlines(Duration idle, Duration request, Duration answer) {
        this.idleNanos = idle.toNanos();
        this.requestNanos = request.toNanos();
        this.answerNanos = answer.toNanos();
    }

    /** The deadlines of these limits. */
    public static HttpDeadlines of(HttpLimits limits) {
        return new HttpDeadlines(limits.idleTimeout(), limits.requestTimeout(), limits.answerTimeout());
    }

    /** Goes before the HTTP codec. */
    public ChannelInboundHandlerAdapter bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) throws Exception {
                if (ConnectionCap.probeOnly(ctx.channel())) {
                    long probe = HttpLimits.PROBE_DEADLINE.toNanos();
                    idleNanos = Math.min(idleNanos, probe);
                    requestNanos = Math.min(requestNanos, probe);
                    answerNanos = Math.min(answerNanos, probe);
                }
                arm(ctx, idleNanos);
                super.channelActive(ctx);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
                if (state == State.IDLE && msg instanceof ByteBuf buf && buf.isReadable()) {
                    state = State.READING;
                    arm(ctx, requestNanos);
                }
                super.channelRead(ctx, msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                cancel();
                super.channelInactive(ctx);
            }
        };
    }

    /** Goes after the HTTP codec (before the aggregator). */
    public ChannelDuplexHandler messages() {
        return new ChannelDuplexHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
                if (msg instanceof LastHttpContent) {
                    state = State.HANDLING;
                    arm(ctx, answerNanos);
                }
                super.channelRead(ctx, msg);
            }

            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
                if (state == State.HANDLING) {
                    // the answer is moving: its deadline starts again (a stream's keep-alive comments do this)
                    arm(ctx, answerNanos);
                }
                if (msg instanceof LastHttpContent) {
                    promise = promise.unvoid();
                    promise.addListener((ChannelFutureListener) f -> {
                        if (f.isSuccess() && f.channel().isActive() && state == State.HANDLING) {
                            state = State.IDLE;
                            arm(ctx, idleNanos);
                        }
                    });
                }
                super.write(ctx, msg, promise);
            }
        };
    }

    private void arm(ChannelHandlerContext ctx, long nanos) {
        cancel();
        timer = ctx.executor().schedule(() -> {
            ctx.channel().close();
        }, nanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
