package io.healthmesh.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The HTTP server of a worker: the operations endpoints {@code /metrics} (Prometheus text format), {@code /healthz}
 * (the process is alive) and {@code /readyz} (the worker is doing its job), and further routes added with
 * {@link #route} (the aggregator's query API) as the JDK's {@code HttpHandler}s.
 *
 * <p>Built on Netty so that slow clients cost no thread: requests are read without blocking on one event loop,
 * under {@link HttpLimits} (a connection cap in all and per client, a reserve of connections for the probes, an
 * idle, a request and an answer deadline, a body limit), then handed to a
 * bounded pool (past its queue: 503). {@code /healthz} is answered on the event loop itself, {@code /metrics} and
 * {@code /readyz} on a thread of their own, so neither slow clients nor busy routes can starve the health check.
 * Routes may require a bearer token ({@link Builder#routeToken}), the ops endpoints another ({@link Builder#opsToken};
 * {@code /healthz} never does). A worker may run two servers: one with the ops endpoints, one with the routes only.
 */
public final class OpsServer implements AutoCloseable {

    private final EventLoopGroup loop;
    private final ExecutorService routeExecutor;
    private final ExecutorService opsExecutor;
    private final Channel channel;
    private final ChannelGroup connections;
    private final OpsDispatcher dispatcher;
    private final ConnectionCap cap;

    private OpsServer(EventLoopGroup loop, ExecutorService routeExecutor, ExecutorService opsExecutor, Channel channel,
                      ChannelGroup connections, OpsDispatcher dispatcher, ConnectionCap cap) {
        this.loop = loop;
        this.routeExecutor = routeExecutor;
        this.opsExecutor = opsExecutor;
        this.channel = channel;
        this.connections = connections;
        this.dispatcher = dispatcher;
        this.cap = cap;
    }

    /**
     * Starts a server with the ops endpoints, default limits and no tokens.
     *
     * @param bind address to bind ({@code port} 0 picks a free port)
     * @param registry the metrics to expose
     * @param ready answers {@code /readyz}: 200 when true, 503 when false
     */
    public static OpsServer start(InetSocketAddress bind, PrometheusRegistry registry, BooleanSupplier ready)
            throws IOException {
        return builder(bind).ops(registry, ready).start();
    }

    /** A server on {@code bind}, with nothing mounted yet. */
    public static Builder builder(InetSocketAddress bind) {
        return new Builder(requireNonNull(bind, "bind"));
    }

    /** What a server serves and under which bounds. */
    public static final class Builder {
        private final InetSocketAddress bind;
        private HttpLimits limits = HttpLimits.defaults();
        private PrometheusRegistry registry;
        private BooleanSupplier ready;
        private String opsToken;
        private String routeToken;
        private String name = "healthmesh-http";

        private Builder(InetSocketAddress bind) {
            this.bind = bind;
        }

        public Builder limits(HttpLimits httpLimits) {
            this.limits = requireNonNull(httpLimits, "httpLimits");
            return this;
        }

        /** Serves {@code /metrics}, {@code /healthz} and {@code /readyz}. */
        public Builder ops(PrometheusRegistry metrics, BooleanSupplier readiness) {
            this.registry = requireNonNull(metrics, "metrics");
            this.ready = requireNonNull(readiness, "readiness");
            return this;
        }

        /** {@code /metrics} and {@code /readyz} require {@code Authorization: Bearer <token>}; null for none. */
        public Builder opsToken(String token) {
            this.opsToken = token;
            return this;
        }

        /** Every route added with {@link #route} requires {@code Authorization: Bearer <token>}; null for none. */
        public Builder routeToken(String token) {
            this.routeToken = token;
            return this;
        }

        /** Names the server's threads. */
        public Builder name(String threadName) {
            this.name = requireNonNull(threadName, "threadName");
            return this;
        }

        /** Binds and starts. */
        public OpsServer start() throws IOException {
            return OpsServer.start(this);
        }
    }

    private static OpsServer start(Builder b) throws IOException {
        HttpLimits limits = b.limits;
        ExecutorService routes = BoundedHttpPipeline.requestThreads(b.name + "-route", limits.threads(), limits.queue());
        ExecutorService ops = BoundedHttpPipeline.requestThreads(b.name + "-ops", 1, 16);
        OpsDispatcher dispatcher = new OpsDispatcher(routes, ops, b.routeToken, b.opsToken,
                b.registry == null ? null : new OpsEndpoints(b.registry, b.ready));
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        BoundedHttpPipeline pipeline = new BoundedHttpPipeline(limits, null,
                () -> new HttpObjectAggregator(limits.maxBodyBytes()), dispatcher);
        try {
            Channel channel = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childHandler(pipeline)
                    .bind(b.bind).syncUninterruptibly().channel();
            return new OpsServer(loop, routes, ops, channel, pipeline.connections(), dispatcher, pipeline.cap());
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            routes.shutdownNow();
            ops.shutdownNow();
            throw new IOException("cannot listen on " + b.bind + ": " + e.getMessage(), e);
        }
    }

    /** Adds a route (a path prefix; the longest matching prefix wins); the handler owns the exchange and must answer it. */
    public OpsServer route(String pathPrefix, HttpHandler handler) {
        dispatcher.route(pathPrefix, handler);
        return this;
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Ordinary connections open now (the probe reserve apart). */
    public int openConnections() {
        return cap.open();
    }

    /** Connections of the probe reserve open now. */
    public int openProbeConnections() {
        return cap.probeOpen();
    }

    /** Writes a complete response and closes the exchange. */
    public static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : (body.length == 0 ? -1 : body.length));
            if (!head && body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The ops endpoints that need a thread: {@code /metrics} and {@code /readyz}. */
    record OpsEndpoints(PrometheusRegistry registry, BooleanSupplier ready) {
        byte[] scrape() {
            return MetricsText.scrape(registry);
        }
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        routeExecutor.shutdownNow();
        opsExecutor.shutdownNow();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
