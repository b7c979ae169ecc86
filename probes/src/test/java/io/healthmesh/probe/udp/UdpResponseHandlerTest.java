package io.healthmesh.probe.udp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.Targets;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;

import static org.assertj.core.api.Assertions.assertThat;

/** The UDP response handler on its own, fed datagrams by hand; no sockets, no clock. */
class UdpResponseHandlerTest {

    @Test
    void udpHandlerJudgesDatagramsAndPortUnreachable() {
        InetSocketAddress peer = new InetSocketAddress(InetAddress.getLoopbackAddress(), 53);
        EmbeddedChannel right = new EmbeddedChannel();
        ProbeContext ok = ProbeFixtures.on(right.eventLoop(), Targets.tcp(53, 2000));
        right.pipeline().addLast(new UdpResponseHandler(ok, "PONG"));
        right.writeInbound(new DatagramPacket(ProbeFixtures.ascii("PONG!"), peer, peer));
        assertThat(ProbeFixtures.report(ok).join().outcome()).isEqualTo(Outcome.SUCCESS);

        EmbeddedChannel wrong = new EmbeddedChannel();
        ProbeContext bad = ProbeFixtures.on(wrong.eventLoop(), Targets.tcp(53, 2000));
        wrong.pipeline().addLast(new UdpResponseHandler(bad, "PONG"));
        wrong.writeInbound(new DatagramPacket(ProbeFixtures.ascii("NOPE"), peer, peer));
        assertThat(ProbeFixtures.report(bad).join().outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);

        EmbeddedChannel closed = new EmbeddedChannel();
        ProbeContext unreachable = ProbeFixtures.on(closed.eventLoop(), Targets.tcp(53, 2000));
        closed.pipeline().addLast(new UdpResponseHandler(unreachable, null));
        closed.pipeline().fireExceptionCaught(new PortUnreachableException("ICMP Port Unreachable"));
        assertThat(ProbeFixtures.report(unreachable).join().outcome()).isEqualTo(Outcome.PORT_UNREACHABLE);
    }
}
