package io.healthmesh.ops;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Routes a complete request of {@link OpsServer}: {@code /healthz} on the event loop, {@code /metrics} and
 * {@code /readyz} on the ops thread, everything else to the route with the longest matching prefix on the
 * bounded route pool, after the bearer-token checks. A full pool answers 503 at once. The connection reads nothing
 * more until its answer is written, so answers keep the order of requests. A connection of the probe reserve
 * ({@link ConnectionCap#probeOnly}) gets its probe answered and is closed; anything else there gets 503. Shared by
 * every connection.
 */
@ChannelHandler.Sharable
final class OpsDispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(OpsDispatcher.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    /** The answer on a connection of the probe reserve to anything but a probe. */
    static final String PROBES_ONLY = "every connection is taken; this one serves /healthz and /readyz only, retry later\n";

    private final Executor routes;
    private final Executor ops;
    private final byte[] routeToken;
    private final byte[] opsToken;
    private final OpsServer.OpsEndpoints endpoints;
    /** Longest prefix first. */
    private final Map<String, RouteContext> contexts = new ConcurrentSkipListMap<>((a, b) ->
            a.length() != b.length() ? Integer.compare(b.length(), a.length()) : a.compareTo(b));

    OpsDispatcher(Executor routes, Executor ops, String routeToken, String opsToken, OpsServer.OpsEndpoints endpoints) {
        this.routes = routes;
        this.ops = ops;
        this.routeToken = routeToken == null ? null : routeToken.getBytes(StandardCharsets.UTF_8);
        this.opsToken = opsToken == null ? null : opsToken.getBytes(StandardCharsets.UTF_8);
        this.endpoints = endpoints;
    }

    void route(String prefix, HttpHandler handler) {
        if (!prefix.startsWith("/")) {
            throw new IllegalArgumentException("pathPrefix: " + prefix + " (expected: starts with /)");
        }
        contexts.put(prefix, new RouteContext(prefix, handler));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        // a connection of the probe reserve answers once and closes, so the reserve turns over
        boolean probeOnly = ConnectionCap.probeOnly(ctx.channel());
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !probeOnly;
        if (request.decoderResult().isFailure()) {
            write(ctx, 400, TEXT, new Headers(), OpsServer.bytes("bad request\n"), false, false);
            return;
        }
        URI uri;
        try {
            uri = new URI(request.uri());
        } catch (URISyntaxException e) {
            write(ctx, 400, TEXT, new Headers(), OpsServer.bytes("bad request: the URI is malformed\n"), false, false);
            return;
        }
        String path = uri.getPath() == null ? "/" : uri.getPath();
        String method = request.method().name();
        boolean head = method.equals("HEAD");
        String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (probeOnly && !(endpoints != null && (path.equals("/healthz") || path.equals("/readyz")))) {
            write(ctx, 503, TEXT, new Headers(), OpsServer.bytes(PROBES_ONLY), head, false);
            return;
        }
        if (endpoints != null && path.equals("/healthz")) {
            write(ctx, 200, "text/plain", new Headers(), OpsServer.bytes("ok\n"), head, keepAlive);
            return;
        }
        if (endpoints != null && (path.equals("/metrics") || path.equals("/readyz"))) {
            if (!allowed(opsToken, authorization)) {
                unauthorized(ctx, keepAlive);
                return;
            }
            submit(ctx, ops, keepAlive, () -> opsAnswer(ctx, path, head, keepAlive));
            return;
        }
        RouteContext context = contexts.values().stream().filter(c -> path.startsWith(c.getPath())).findFirst().orElse(null);
        if (context == null) {
            write(ctx, 404, TEXT, new Headers(), OpsServer.bytes("not found\n"), head, keepAlive);
            return;
        }
        if (!allowed(routeToken, authorization) && !(readOnlyPage(path, method) && allowedByQuery(routeToken, uri))) {
            unauthorized(ctx, keepAlive);
            return;
        }
        Headers headers = new Headers();
        request.headers().forEach(h -> headers.add(h.getKey(), h.getValue()));
        byte[] body = new byte[request.content().readableBytes()];
        request.content().readBytes(body);
        String protocol = request.protocolVersion().text();
        submit(ctx, routes, keepAlive, () -> {
            BufferedExchange exchange = new BufferedExchange(method, uri, protocol, headers, body,
                    (InetSocketAddress) ctx.channel().remoteAddress(), (InetSocketAddress) ctx.channel().localAddress(),
                    context, answer -> write(ctx, answer.status(), null, answer.headers(), answer.body(), answer.head(), keepAlive),
                    new ChunkedAnswer(ctx, keepAlive));
            try {
                context.getHandler().handle(exchange);
            } catch (Exception | Error e) {
                LOG.warn("HTTP route {} failed on {} {}", context.getPath(), method, path, e);
                if (exchange.getResponseCode() < 0) {
                    try {
                        exchange.sendResponseHeaders(500, -1);
                    } catch (java.io.IOException ignored) {
                        // headers were just checked as unsent
                    }
                }
            } finally {
                // a handler that sent nothing and did not close keeps the exchange (a stream written later, as on the
                // JDK's server); one that answered, or failed, is done
                if (exchange.answered()) {
                    exchange.close();
                }
            }
        });
    }

    /** A streamed answer on one connection: chunked transfer, each chunk written before the next is accepted. */
    private static final class ChunkedAnswer implements BufferedExchange.Stream {
        private static final long WRITE_PATIENCE_MS = 10_000;
        private final ChannelHandlerContext ctx;
        private final boolean keepAlive;

        ChunkedAnswer(ChannelHandlerContext ctx, boolean keepAlive) {
            this.ctx = ctx;
            this.keepAlive = keepAlive;
        }

        @Override
        public void start(int status, Headers headers) throws IOException {
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
            headers.forEach((name, values) -> {
                if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Connection")) {
                    response.headers().set(name, (List<String>) values);
                }
            });
            HttpUtil.setTransferEncodingChunked(response, true);
            response.headers().set(HttpHeaderNames.CONNECTION,
                    keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            send(response);
        }

        @Override
        public void chunk(byte[] data) throws IOException {
            send(new DefaultHttpContent(Unpooled.wrappedBuffer(data)));
        }

        @Override
        public void end() {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (keepAlive) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(f -> ctx.channel().config().setAutoRead(true));
            } else {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
            }
        }

        /** Writes and waits for the write: a client that does not read holds up its own stream only, then is cut. */
        private void send(Object message) throws IOException {
            if (!ctx.channel().isActive()) {
                throw new IOException("the client closed the connection");
            }
            io.netty.channel.ChannelFuture written = ctx.writeAndFlush(message);
            try {
                if (!written.await(WRITE_PATIENCE_MS)) {
                    ctx.channel().close();
                    throw new IOException("the client did not read for " + WRITE_PATIENCE_MS + " ms");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while writing", e);
            }
            if (!written.isSuccess()) {
                throw new IOException("write failed: " + written.cause());
            }
        }
    }

    private void opsAnswer(ChannelHandlerContext ctx, String path, boolean head, boolean keepAlive) {
        try {
            if (path.equals("/metrics")) {
                write(ctx, 200, MetricsText.CONTENT_TYPE, new Headers(), endpoints.scrape(), head, keepAlive);
            } else {
                boolean ready = endpoints.ready().getAsBoolean();
                write(ctx, ready ? 200 : 503, "text/plain", new Headers(), OpsServer.bytes(ready ? "ready\n" : "not ready\n"),
                        head, keepAlive);
            }
        } catch (Exception e) {
            LOG.warn("{} failed", path, e);
            write(ctx, 500, TEXT, new Headers(), OpsServer.bytes("error\n"), head, false);
        }
    }

    private static void submit(ChannelHandlerContext ctx, Executor executor, boolean keepAlive, Runnable work) {
        ctx.channel().config().setAutoRead(false);
        try {
            executor.execute(work);
        } catch (RejectedExecutionException e) {
            write(ctx, 503, TEXT, new Headers(), OpsServer.bytes("busy, retry later\n"), false, keepAlive);
        }
    }

    private static boolean allowed(byte[] token, String authorization) {
        if (token == null) {
            return true;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(token, authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The status page's paths, read-only: a browser cannot put a header on a page it opens from a link nor on an
     * {@code EventSource}, so these alone also take the token as the query parameter {@code token}.
     */
    private static boolean readOnlyPage(String path, String method) {
        return path.startsWith("/status/") && (method.equals("GET") || method.equals("HEAD"));
    }

    private static boolean allowedByQuery(byte[] token, URI uri) {
        String query = uri.getRawQuery();
        if (token == null || query == null) {
            return false;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("token=")) {
                String given = java.net.URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8);
                return MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
            }
        }
        return false;
    }

    private static void unauthorized(ChannelHandlerContext ctx, boolean keepAlive) {
        Headers headers = new Headers();
        headers.set("WWW-Authenticate", "Bearer realm=\"healthmesh\"");
        write(ctx, 401, TEXT, headers, OpsServer.bytes("unauthorized: a bearer token is required\n"), false, keepAlive);
    }

    /** Writes a full answer from any thread, then lets the connection read its next request. */
    static void write(ChannelHandlerContext ctx, int status, String contentType, Headers headers, byte[] body, boolean head,
                      boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        headers.forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Connection")) {
                response.headers().set(name, (List<String>) values);
            }
        });
        if (contentType != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response).addListener(f -> ctx.channel().config().setAutoRead(true));
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("HTTP connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
