package io.healthmesh.registry;

import io.netty.buffer.Unpooled;
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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Turns an aggregated HTTP request into a {@link RegistryApi} call and writes the answer with
 * Confluent's content type. Runs on an executor apart from the event loop: a registration waits
 * for the Kafka write. Shared by every connection (it holds no per-connection state).
 */
@ChannelHandler.Sharable
final class RegistryHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);

    private final RegistryApi api;

    RegistryHttpHandler(RegistryApi api) {
        this.api = requireNonNull(api, "api");
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        ApiResponse answer;
        if (request.decoderResult().isFailure()) {
            keepAlive = false;
            answer = RegistryApi.error(400, 400, "Bad request: " + request.decoderResult().cause());
        } else {
            answer = answer(request);
        }
        write(ctx, answer, keepAlive);
    }

    private ApiResponse answer(FullHttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        List<String> segments = new ArrayList<>();
        for (String raw : uri.rawPath().split("/")) {
            if (!raw.isEmpty()) {
                try {
                    segments.add(QueryStringDecoder.decodeComponent(raw));
                } catch (IllegalArgumentException e) {
                    return RegistryApi.error(400, 400, "Bad request: path segment '" + raw + "' is not percent-encoded correctly");
                }
            }
        }
        byte[] body = new byte[request.content().readableBytes()];
        request.content().readBytes(body);
        return api.handle(new RegistryApi.Request(request.method().name(), segments, uri.parameters(), body));
    }

    static void write(ChannelHandlerContext ctx, ApiResponse answer, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof ReadTimeoutException)) {
            LOG.debug("Registry connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
