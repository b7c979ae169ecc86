package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.netty.buffer.Unpooled;

import java.net.InetSocketAddress;

/**
 * A {@link ConnectCheck} through a Netty channel that never reads: connected is a success, then the channel closes
 * with a reset. With 000's L4 marker, the marker is written once connected and the verdict still is the connect's.
 */
final class ChannelConnectCheck implements ConnectCheck {

    private final ProbeBootstraps bootstraps;
    private final byte[] marker;

    /** {@code marker}: the bytes written once connected, or {@code null}. */
    ChannelConnectCheck(ProbeBootstraps bootstraps, byte[] marker) {
        this.bootstraps = bootstraps;
        this.marker = marker;
    }

    @Override
    public void start(ProbeContext probe, InetSocketAddress remote) {
        ProbeBootstraps.connect(probe, bootstraps.connectOnly(probe, remote.getAddress()), remote, channel -> {
            if (marker == null) {
                probe.succeed("connected");
                return;
            }
            // 000's "HEALTH CHECK" mark: written once connected; the verdict is still the connect
            channel.writeAndFlush(Unpooled.wrappedBuffer(marker)).addListener(w -> probe.succeed("connected, marker sent"));
        });
    }
}
