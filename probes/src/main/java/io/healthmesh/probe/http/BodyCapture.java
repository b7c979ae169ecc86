package io.healthmesh.probe.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The first bytes of a response body and its headers, kept for a definition's condition: at most {@code limit}
 * body bytes (the rest is counted, not kept) and {@link #MAX_HEADERS} headers. Confined to the probe's loop.
 */
final class BodyCapture {

    /** Headers kept for a condition; a response with more keeps the first ones. */
    static final int MAX_HEADERS = 100;

    private final int limit;
    private byte[] bytes = new byte[256];
    private int size;
    private boolean cut;

    BodyCapture(int limit) {
        this.limit = limit;
    }

    /** Keeps what of {@code content} fits under the limit. */
    void append(ByteBuf content) {
        int wanted = content.readableBytes();
        int take = Math.min(wanted, limit - size);
        if (take < wanted) {
            cut = true;
        }
        if (take <= 0) {
            return;
        }
        if (size + take > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.min(limit, Math.max(size + take, bytes.length * 2)));
        }
        content.getBytes(content.readerIndex(), bytes, size, take);
        size += take;
    }

    /** True once the limit is reached: nothing more will be kept. */
    boolean isFull() {
        return size >= limit;
    }

    /** True when bytes beyond the limit arrived. */
    boolean isCut() {
        return cut;
    }

    /** What was kept, as UTF-8 (a character cut at the limit becomes a replacement character). */
    String text() {
        return new String(bytes, 0, size, StandardCharsets.UTF_8);
    }

    /** {@code headers} by lower-case name, the first value of a repeated one, at most {@link #MAX_HEADERS}. */
    static Map<String, String> headers(HttpHeaders headers) {
        Map<String, String> out = new HashMap<>();
        for (Map.Entry<String, String> header : headers) {
            if (out.size() == MAX_HEADERS) {
                break;
            }
            out.putIfAbsent(header.getKey().toLowerCase(Locale.ROOT), header.getValue());
        }
        return out;
    }
}
