package io.healthmesh.testkit.farm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One HTTP server holding several targets, one per path: {@code 200} while a path is up, {@code 503} while
 * it is down, {@code 404} for a path it does not hold. Empty bodies; keep-alive honoured.
 */
final class HttpStatusServer implements AutoCloseable {

    private final Map<String, Boolean> upByPath = new ConcurrentHashMap<>();
    private final Channel listener;

    HttpStatusServer(EventLoopGroup group, String address) throws InterruptedException {
        this.listener = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new StatusHandler());
                    }
                })
                .bind(new InetSocketAddress(address, 0)).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** A switch for one path of this server; the path starts up. */
    TargetSwitch path(String path) {
        upByPath.put(path, Boolean.TRUE);
        return new TargetSwitch() {
            @Override
            public void set(boolean up) {
                upByPath.put(path, up);
            }

            @Override
            public void close() {
                upByPath.remove(path);
            }
        };
    }

    @Override
    public void close() throws InterruptedException {
        listener.close().sync();
    }

    private final class StatusHandler extends SimpleChannelInboundHandler<HttpObject> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) {
                return;
            }
            String uri = request.uri();
            int query = uri.indexOf('?');
            Boolean up = upByPath.get(query < 0 ? uri : uri.substring(0, query));
            HttpResponseStatus status = up == null ? HttpResponseStatus.NOT_FOUND
                    : up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            boolean keepAlive = HttpUtil.isKeepAlive(request);
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
            ctx.close();
        }
    }
}
