package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.transport.ProbeBootstraps.TcpOpening;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which TCP connections hold back the handshake's last ACK ({@code TCP_QUICKACK} 0): those where the probe closes
 * at once or speaks first, never those where the target speaks first (its banner would wait for the kernel's
 * delayed-ACK timer; {@code TransportOutcomesTest} shows that on the wire).
 */
class ProbeBootstrapsTest {

    static List<ProbeTransport> available() {
        return TransportOutcomesTest.available();
    }

    @ParameterizedTest
    @MethodSource("available")
    void onlyConnectionsWhereTheTargetSpeaksFirstAcknowledgeAtOnce(ProbeTransport kind) throws Exception {
        ChosenTransport transport = new ChosenTransport(kind, kind, "test");
        ChannelOption<Boolean> quickAck = transport.quickAckOption();
        assertThat(quickAck).as("Linux has TCP_QUICKACK on %s", kind).isNotNull();
        ProbeBootstraps bootstraps = new ProbeBootstraps(transport, null);
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        try {
            ProbeContext probe = ProbeFixtures.on(loopOwner.eventLoop(), Targets.tcp(9, 2000));
            for (InetAddress address : List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"))) {
                ChannelInboundHandlerAdapter handler = new ChannelInboundHandlerAdapter();
                assertThat(options(bootstraps.connectOnly(probe, address))).containsEntry(quickAck, false)
                        .containsEntry(ChannelOption.AUTO_READ, false);
                assertThat(options(bootstraps.tcp(probe, address, handler, TcpOpening.PROBE_WRITES_FIRST)))
                        .containsEntry(quickAck, false).doesNotContainKey(ChannelOption.AUTO_READ);
                assertThat(options(bootstraps.tcp(probe, address, handler, TcpOpening.TARGET_SPEAKS_FIRST)))
                        .doesNotContainKey(quickAck).doesNotContainKey(ChannelOption.AUTO_READ)
                        .containsEntry(ChannelOption.SO_LINGER, 0);
            }
        } finally {
            loopOwner.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void aBoundSourceAddressTakesItsPortAtTheConnectWhereTheTransportCan(ProbeTransport kind) throws Exception {
        ChosenTransport transport = new ChosenTransport(kind, kind, "test");
        ChannelOption<Boolean> noPort = transport.bindAddressNoPortOption();
        if (kind == ProbeTransport.EPOLL) {
            assertThat(noPort).isNotNull();
        }
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        try {
            ProbeContext probe = ProbeFixtures.on(loopOwner.eventLoop(), Targets.tcp(9, 2000));
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            ProbeBootstraps bound = new ProbeBootstraps(transport, loopback);
            ProbeBootstraps unbound = new ProbeBootstraps(transport, null);
            if (noPort != null) {
                assertThat(options(bound.connectOnly(probe, loopback))).containsEntry(noPort, true);
                assertThat(options(bound.tcp(probe, loopback, new ChannelInboundHandlerAdapter(),
                        TcpOpening.TARGET_SPEAKS_FIRST))).containsEntry(noPort, true);
                assertThat(options(unbound.connectOnly(probe, loopback))).doesNotContainKey(noPort);
            }
        } finally {
            loopOwner.finishAndReleaseAll();
        }
    }

    private static java.util.Map<ChannelOption<?>, Object> options(Bootstrap bootstrap) {
        return bootstrap.config().options();
    }
}
