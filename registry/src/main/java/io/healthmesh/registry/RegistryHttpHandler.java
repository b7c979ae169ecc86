package io.healthmesh.registry;

import io.healthmesh.ops.ConnectionCap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.ReadTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import static java.util.Objects.requireNonNull;

/**
 * Turns an aggregated HTTP request into a {@link RegistryApi} call and writes the answer with
 * Confluent's content type. The call runs on an executor apart from the event loop (a registration
 * waits for the Kafka write); the connection stops reading until its answer is written, so the
 * answers of one connection keep the order of its requests; every request is answered, a failure with 500.
 * {@code /healthz} and {@code /readyz} are answered on the event loop; a connection of the probe reserve
 * ({@link ConnectionCap#probeOnly}) serves nothing else. Shared by every connection.
 */
@ChannelHandler.Sharable
final class RegistryHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);

    private final RegistryApi api;
    private final OpsRoutes ops;
    private final Executor executor;
    private final RegistryAccess access;

    RegistryHttpHandler(RegistryApi api, OpsRoutes ops, Executor executor, RegistryAccess access) {
        this.api = requireNonNull(api, "api");
        this.ops = requireNonNull(ops, "ops");
        this.executor = requireNonNull(executor, "executor");
        this.access = requireNonNull(access, "access");
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            write(ctx, RegistryApi.error(400, 400, "Bad request: " + request.decoderResult().cause()), false);
            return;
        }
        // a connection of the probe reserve answers once and closes, so the reserve turns over
        boolean probeOnly = ConnectionCap.probeOnly(ctx.channel());
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !probeOnly;
        RegistryApi.Request call = call(request);
        if (call == null) {
            write(ctx, RegistryApi.error(400, 400, "Bad request: the path is not percent-encoded correctly"), false);
            return;
        }
        // the probes are answered here on the event loop: a busy API pool cannot fail them
        Optional<ApiResponse> probe = call.method().equals("GET") ? OpsRoutes.probe(call.path()) : Optional.empty();
        if (probe.isPresent()) {
            ops.count(call.method(), 200);
            write(ctx, probe.get(), keepAlive);
            return;
        }
        if (probeOnly) {
            write(ctx, RegistryApi.error(503, 50303, "Every connection is taken; this one serves /healthz and /readyz only,"
                    + " retry later"), false);
            return;
        }
        String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        ctx.channel().config().setAutoRead(false);
        try {
            executor.execute(() -> answer(ctx, call, authorization, keepAlive));
        } catch (RejectedExecutionException e) {
            ctx.channel().config().setAutoRead(true);
            write(ctx, RegistryApi.error(503, 50302, "Registry busy or stopping, retry later"), false);
        }
    }

    /** Runs one request on the API pool and always answers it: whatever fails, the connection gets a 500 and reads on. */
    private void answer(ChannelHandlerContext ctx, RegistryApi.Request call, String authorization, boolean keepAlive) {
        ApiResponse answer;
        try {
            answer = ops.answer(call.method(), call.path()).orElseGet(() -> guarded(call, authorization));
        } catch (RuntimeException | Error e) {
            LOG.error("Registry request {} failed", call.method(), e);
            answer = RegistryApi.error(500, 50001, "Error in the registry");
        }
        ops.count(call.method(), answer.status());
        write(ctx, answer, keepAlive).addListener(f -> ctx.channel().config().setAutoRead(true));
    }

    /** The API's answer when {@link RegistryAccess} lets the request through, else its refusal. */
    private ApiResponse guarded(RegistryApi.Request call, String authorization) {
        RegistryAccess.Decision decision = access.decide(call.method(), call.path(), authorization);
        if (decision.refusal().isPresent()) {
            return decision.refusal().get();
        }
        if (!decision.registerAsLookup()) {
            return api.handle(call);
        }
        // a read-only user registering: fine when the schema is already there (the answer is the same), else 403
        String subject = call.path().get(1);
        ApiResponse looked = api.handle(new RegistryApi.Request("POST", List.of("subjects", subject), java.util.Map.of(), call.body()));
        if (looked.status() == 200) {
            return ApiResponse.json(200, "{\"id\":" + RegistryApi.idOf(looked) + "}");
        }
        if (looked.status() == 404 && decision.user() == null) {
            return RegistryAccess.unauthorized(null);
        }
        if (looked.status() == 404) {
            return RegistryApi.error(403, RegistryAccess.FORBIDDEN_CODE, "Forbidden: user " + decision.user()
                    + " has role read and the schema is not registered under " + subject + " (expected: admin to register it)");
        }
        return looked;
    }

    /** The request as the API sees it, read on the event loop (the buffer is released after this); null for a bad path. */
    private static RegistryApi.Request call(FullHttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        List<String> segments = new ArrayList<>();
        for (String raw : uri.rawPath().split("/")) {
            if (!raw.isEmpty()) {
                try {
                    segments.add(QueryStringDecoder.decodeComponent(raw));
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        byte[] body = new byte[request.content().readableBytes()];
        request.content().readBytes(body);
        return new RegistryApi.Request(request.method().name(), segments, uri.parameters(), body);
    }

    static ChannelFuture write(ChannelHandlerContext ctx, ApiResponse answer, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        if (answer.status() == 401) {
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"healthmesh-registry\", charset=\"UTF-8\"");
        }
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            return ctx.writeAndFlush(response);
        }
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof ReadTimeoutException)) {
            LOG.debug("Registry connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}
