package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;

import java.nio.charset.StandardCharsets;

/**
 * Judges the first datagram that comes back: success when it contains the expected response (or when none is
 * expected, as in port mode, where any answer proves the port open), else {@code UNEXPECTED_RESPONSE}. Errors
 * (the port-unreachable of a connected channel among them) go to the runner's classification.
 */
final class UdpResponseHandler extends SimpleChannelInboundHandler<DatagramPacket> {

    private final ProbeContext probe;
    private final ByteWindow window;

    UdpResponseHandler(ProbeContext probe, String expected) {
        this.probe = probe;
        this.window = expected == null ? null
                : new ByteWindow(ProbeBootstraps.MAX_DATAGRAM_BYTES, expected.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        if (probe.isDone()) {
            return;
        }
        ByteBuf content = packet.content();
        probe.bytesRead(content.readableBytes());
        if (window == null) {
            probe.succeed("UDP response of " + content.readableBytes() + " bytes");
        } else if (window.append(content)) {
            probe.succeed("UDP response contains expected text");
        } else {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, "UDP response of " + content.readableBytes()
                    + " bytes does not contain the expected text");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        probe.fail(cause);
    }
}
