package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The same probes over ::1, when the machine has IPv6 loopback. */
class Ipv6LoopbackTest {

    private static NettyProbeEngine engine;

    @BeforeAll
    static void start() throws Exception {
        boolean ipv6 = false;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
            ipv6 = probe.getInetAddress() instanceof Inet6Address;
        } catch (java.io.IOException e) {
            ipv6 = false;
        }
        assumeTrue(ipv6, "no IPv6 loopback (::1) on this machine");
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void tcpConnectsAndRefusesOverIpv6() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getByName("::1"))) {
            assertThat(engine.probe(Targets.target(Protocol.TCP, "::1", listener.getLocalPort(), Targets.GENEROUS_MS))
                    .get(Targets.GENEROUS_MS + 5000, TimeUnit.MILLISECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
        }
        int closed;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
            closed = gone.getLocalPort();
        }
        assertThat(engine.probe(Targets.target(Protocol.TCP, "::1", closed, Targets.GENEROUS_MS)).get(Targets.GENEROUS_MS + 5000, TimeUnit.MILLISECONDS).outcome())
                .isEqualTo(Outcome.CONNECTION_REFUSED);
    }

    @Test
    void udpPortUnreachableOverIpv6() throws Exception {
        int closed;
        try (DatagramSocket gone = new DatagramSocket(0, InetAddress.getByName("::1"))) {
            closed = gone.getLocalPort();
        }
        ProbeReport report = engine.probe(Targets.target(Protocol.UDP, "::1", closed, Targets.GENEROUS_MS)
                .withUdp(new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG"))).get(Targets.GENEROUS_MS + 5000, TimeUnit.MILLISECONDS);
        assertThat(report.outcome()).isEqualTo(Outcome.PORT_UNREACHABLE);
    }

    @Test
    void httpHostHeaderBracketsTheIpv6Address() throws Exception {
        try (ScriptedServer v6 = ScriptedServer.httpOn(InetAddress.getByName("::1"),
                (s, head, srv) -> srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport report = engine.probe(Targets.target(Protocol.HTTP, "::1", v6.port(), Targets.GENEROUS_MS))
                    .get(Targets.GENEROUS_MS + 5000, TimeUnit.MILLISECONDS);
            assertThat(report.outcome()).as(report.toString()).isEqualTo(Outcome.SUCCESS);
            assertThat(v6.requests().get(0)).containsIgnoringCase("host: [::1]:" + v6.port() + "\r\n");
        }
    }
}
