package io.healthmesh.probe.udp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.transport.ByteWindow;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;


/**
 * Judges the first datagram that comes back: success when it contains the expected response (or when none is
 * expected, as in port mode, where any answer proves the port open), else {@code UNEXPECTED_RESPONSE}. Errors
 * (the port-unreachable of a connected channel among them) go to the runner's classification.
 */
final class UdpResponseHandler extends SimpleChannelInboundHandler<DatagramPacket> {

    private final ProbeContext probe;
    private final ByteWindow window;
    private final byte[] exact;

    /** Text that a datagram must contain ({@code null}: any datagram passes). */
    UdpResponseHandler(ProbeContext probe, String expected) {
        this(probe, expected == null ? null : expected.getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
    }

    /** {@code expected} null: any datagram passes; {@code exactMatch}: the datagram must equal it. */
    UdpResponseHandler(ProbeContext probe, byte[] expected, boolean exactMatch) {
        this.probe = probe;
        this.exact = expected != null && exactMatch ? expected : null;
        this.window = expected == null || exactMatch ? null
                : new ByteWindow(ProbeBootstraps.MAX_DATAGRAM_BYTES, expected);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        probe.factBytes("response", packet.content());
        if (probe.isDone()) {
            return;
        }
        ByteBuf content = packet.content();
        probe.bytesRead(content.readableBytes());
        if (exact != null) {
            byte[] got = new byte[content.readableBytes()];
            content.getBytes(content.readerIndex(), got);
            if (java.util.Arrays.equals(got, exact)) {
                probe.succeed("UDP response equals the expected " + exact.length + " bytes");
            } else {
                probe.finish(Outcome.UNEXPECTED_RESPONSE, "UDP response of " + got.length
                        + " bytes is not the expected " + exact.length + " bytes");
            }
        } else if (window == null) {
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
