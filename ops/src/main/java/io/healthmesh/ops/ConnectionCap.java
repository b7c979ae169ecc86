package io.healthmesh.ops;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closes a newly accepted connection when the server already holds its maximum, before anything is read from
 * it. Shared by every connection of one server; counts what it refused.
 */
@ChannelHandler.Sharable
public final class ConnectionCap extends ChannelInboundHandlerAdapter {

    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("healthmesh.connection.counted");

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    public ConnectionCap(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max.connections: " + max + " (expected: at least 1)");
        }
        this.max = max;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            refused.incrementAndGet();
            ctx.close();
            return;
        }
        ctx.channel().attr(COUNTED).set(Boolean.TRUE);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().attr(COUNTED).getAndSet(null) != null) {
            open.decrementAndGet();
        }
        super.channelInactive(ctx);
    }

    /** Connections open now. */
    public int open() {
        return open.get();
    }

    /** Connections closed on accept because the cap was reached. */
    public long refused() {
        return refused.get();
    }
}
