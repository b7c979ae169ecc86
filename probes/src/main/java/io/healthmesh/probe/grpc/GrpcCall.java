package io.healthmesh.probe.grpc;

import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * What one health call sends, and the HTTP/2 codec it speaks through.
 *
 * @param tls true over TLS
 * @param authority the {@code :authority}: the target's address and port
 * @param service the service name asked about, empty for the whole server
 * @param userAgent the prober's user agent
 * @param maxHeaderBytes the largest header block (response headers or trailers) accepted
 */
record GrpcCall(boolean tls, String authority, String service, String userAgent, int maxHeaderBytes) {

    /**
     * A client connection handler for one call, reporting to {@code frames}: no server push, a header block bounded as
     * HTTP's are, no graceful-shutdown wait when the probe closes the connection.
     */
    Http2ConnectionHandler newConnectionHandler(Http2FrameListener frames) {
        return new Http2ConnectionHandlerBuilder()
                .connection(new DefaultHttp2Connection(false))
                .frameListener(frames)
                .initialSettings(Http2Settings.defaultSettings().pushEnabled(false).maxHeaderListSize(maxHeaderBytes)
                        .maxConcurrentStreams(0))
                .gracefulShutdownTimeoutMillis(0)
                .build();
    }
}
