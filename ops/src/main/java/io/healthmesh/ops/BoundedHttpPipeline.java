package io.healthmesh.ops;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What every HTTP server of the project (the workers' {@link OpsServer}, the schema registry) puts on an accepted
 * connection, in this order: the {@link ConnectionCap}, the byte deadlines ({@link HttpDeadlines}), TLS when the
 * listener has it, the HTTP codec, the message deadlines, a body aggregator bounded by {@link HttpLimits}, then the
 * server's own handler. Cap and deadlines come first, so that no client is parsed before they hold it.
 */
public final class BoundedHttpPipeline extends ChannelInitializer<SocketChannel> {

    private final ChannelGroup connections;
    private final ConnectionCap cap;
    private final HttpLimits limits;
    private final SslContext tls;
    private final Supplier<ChannelHandler> aggregator;
    private final ChannelHandler handler;

    /**
     * @param tls         the listener's TLS, or null for plain HTTP
     * @param aggregator  a new body aggregator per connection, bounded by {@code limits.maxBodyBytes()}
     * @param handler     the server's handler, shared by every connection
     */
    public BoundedHttpPipeline(HttpLimits limits, SslContext tls, Supplier<ChannelHandler> aggregator,
                               ChannelHandler handler) {
        this.limits = requireNonNull(limits, "limits");
        this.connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        this.cap = ConnectionCap.of(limits);
        this.tls = tls;
        this.aggregator = requireNonNull(aggregator, "aggregator");
        this.handler = requireNonNull(handler, "handler");
    }

    /** Every connection accepted and still open: the server closes them all when it stops. */
    public ChannelGroup connections() {
        return connections;
    }

    /** The connection cap, counting what is open. */
    public ConnectionCap cap() {
        return cap;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        HttpDeadlines deadlines = HttpDeadlines.of(limits);
        ChannelPipeline pipeline = ch.pipeline();
        pipeline.addLast(cap);
        pipeline.addLast(deadlines.bytes());
        if (tls != null) {
            pipeline.addLast(tls.newHandler(ch.alloc()));
        }
        pipeline.addLast(new HttpServerCodec());
        pipeline.addLast(deadlines.messages());
        pipeline.addLast(aggregator.get());
        pipeline.addLast(handler);
    }

    /**
     * The threads a server hands requests to: {@code threads} of them, named {@code name-1...}, daemons, and a
     * queue of {@code queue} (0: none); past it a request is refused, and the server answers it 503 instead of
     * letting requests pile up.
     */
    public static ExecutorService requestThreads(String name, int threads, int queue) {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                queue == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queue), r -> {
                    Thread t = new Thread(r, name + "-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }
}
