package io.healthmesh.registry;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;

/**
 * Netty's aggregator with a body limit whose refusal is Confluent-shaped: a 413 with
 * {@code {"error_code":413,..}}, then the connection closes (the rest of the body is not read).
 */
final class BoundedHttpAggregator extends HttpObjectAggregator {

    private final int maxBodyBytes;

    BoundedHttpAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        RegistryHttpHandler.write(ctx, RegistryApi.error(413, 413,
                "Request body too large (expected: at most " + maxBodyBytes + " bytes)"), false);
    }
}
