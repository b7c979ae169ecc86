package io.healthmesh.probe.http;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ReservedHeaders;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpVersion;

import java.util.Map;
import java.util.Set;

/**
 * Builds the probe request. Host, User-Agent, Connection and the framing headers are the probe's own: a custom
 * header cannot change them, so every probe stays recognisable and one connection carries one request; nor is a
 * metadata-service header ever sent ({@link ReservedHeaders}). Custom headers go only where the hop allows them
 * ({@link HttpHop#customHeaders()}).
 */
final class HttpRequests {

    private HttpRequests() {
    }

    static FullHttpRequest build(HttpHop hop, HttpSpec spec, String userAgent) {
        return build(hop, spec, userAgent, true);
    }

    /** {@code withHost} false leaves the Host header out (ALIBABA_NLB without a domain, 002). */
    static FullHttpRequest build(HttpHop hop, HttpSpec spec, String userAgent, boolean withHost) {
        io.netty.handler.codec.http.HttpMethod method = spec.method() == HttpMethod.GET
                ? io.netty.handler.codec.http.HttpMethod.GET : io.netty.handler.codec.http.HttpMethod.HEAD;
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, hop.path(), Unpooled.EMPTY_BUFFER);
        for (Map.Entry<String, String> header : hop.customHeaders() ? spec.headers().entrySet()
                : Set.<Map.Entry<String, String>>of()) {
            if (!ReservedHeaders.isReserved(header.getKey())) {
                request.headers().set(checked("header name", header.getKey()), checked("header " + header.getKey(), header.getValue()));
            }
        }
        if (withHost) {
            request.headers().set(HttpHeaderNames.HOST, hop.authority());
        }
        request.headers()
                .set(HttpHeaderNames.USER_AGENT, userAgent)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (!request.headers().contains(HttpHeaderNames.ACCEPT)) {
            request.headers().set(HttpHeaderNames.ACCEPT, "*/*");
        }
        return request;
    }

    /** Refuses control characters, so that no value can smuggle a second header or request. */
    private static String checked(String what, String value) {
        if (value == null || value.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
            throw new IllegalArgumentException(what + ": contains a control character");
        }
        return value;
    }
}
