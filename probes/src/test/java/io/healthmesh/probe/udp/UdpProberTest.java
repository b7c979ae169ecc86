package io.healthmesh.probe.udp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.probe.IcmpSupport;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import io.healthmesh.probe.icmp.IcmpSocketKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class UdpProberTest {

    private static NettyProbeEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    private static ProbeReport run(TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    private static TargetSpec udp(int port, int timeoutMs, UdpSpec spec) {
        return Targets.target(Protocol.UDP, "127.0.0.1", port, timeoutMs).withUdp(spec);
    }

    @Test
    void payloadModeSucceedsOnTheExpectedResponse() throws Exception {
        try (UdpResponder responder = new UdpResponder(request -> "PONG " + request)) {
            ProbeReport report = run(udp(responder.port(), Targets.GENEROUS_MS, new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG PING")));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.bytesRead()).isEqualTo(9);
            assertThat(responder.lastRequest).isEqualTo("PING");
        }
    }

    @Test
    void payloadModeWrongResponseIsUnexpectedResponse() throws Exception {
        try (UdpResponder responder = new UdpResponder(request -> "ERR")) {
            ProbeReport report = run(udp(responder.port(), Targets.GENEROUS_MS, new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG")));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        }
    }

    @Test
    void hexPayloadsAreDecodedAndExactMatchNeedsTheWholeDatagram() throws Exception {
        try (UdpResponder responder = new UdpResponder(request -> "PONG " + request)) {
            // "PING" and "PONG PING" written as hex bytes, as a DNS or QUIC probe would be
            ProbeReport hex = run(udp(responder.port(), Targets.GENEROUS_MS,
                    new UdpSpec(UdpMode.PAYLOAD, "50494e47", "504f4e472050494e47", true, true)));
            assertThat(hex.outcome()).as(hex.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(responder.lastRequest).isEqualTo("PING");
            ProbeReport part = run(udp(responder.port(), Targets.GENEROUS_MS,
                    new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG", false, true)));
            assertThat(part.outcome()).as("exact: a datagram that only contains it fails")
                    .isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            ProbeReport contains = run(udp(responder.port(), Targets.GENEROUS_MS,
                    new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG", false, false)));
            assertThat(contains.outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void payloadModeSilenceIsTimeout() throws Exception {
        try (UdpResponder responder = new UdpResponder(request -> null)) {
            ProbeReport report = Unstalled.check(
                    () -> run(udp(responder.port(), 700, new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG"))));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(700 + Targets.DEADLINE_SLACK_MS));
        }
    }

    @Test
    void payloadModeClosedPortIsPortUnreachable() throws Exception {
        ProbeReport report = run(udp(closedUdpPort(), Targets.GENEROUS_MS, new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG")));
        assertThat(report.outcome()).isEqualTo(Outcome.PORT_UNREACHABLE);
    }

    @Test
    void portModeClosedPortIsPortUnreachable() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "127.0.0.1");
        assumeTrue(why == null, () -> "port mode pings first; " + why);
        ProbeReport report = run(udp(closedUdpPort(), Targets.GENEROUS_MS, UdpSpec.DEFAULTS));
        assertThat(report.outcome()).isEqualTo(Outcome.PORT_UNREACHABLE);
        assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(Targets.GENEROUS_MS / 2));
    }

    @Test
    void portModeSilentOpenPortIsSuccessAtTheDeadline() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "127.0.0.1");
        assumeTrue(why == null, () -> "port mode pings first; " + why);
        try (UdpResponder responder = new UdpResponder(request -> null)) {
            ProbeReport report = run(udp(responder.port(), 1500, UdpSpec.DEFAULTS));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.detail()).contains("no ICMP port-unreachable");
            assertThat(report.latencyMicros()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(1490));
            assertThat(responder.lastRequest).isEqualTo(ProbeEngineConfig.DEFAULT_USER_AGENT);
        }
    }

    @Test
    void portModeFailsWhenThePingFails() throws Exception {
        try (NettyProbeEngine noIcmp = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1)
                .withIcmp(IcmpSocketKind.PING, 4), null)) {
            assumeTrue(IcmpSupport.whyNot(IcmpSocketKind.PING, "127.0.0.1") != null,
                    "ping sockets are allowed here, so the ping cannot be made to fail this way");
            TargetSpec target = udp(closedUdpPort(), 1000, UdpSpec.DEFAULTS);
            ProbeReport report = noIcmp.probe(target).get(30, TimeUnit.SECONDS);
            // the prober cannot ping at all: its own trouble, not a vote against the target
            assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(report.detail()).startsWith("internal-error: ").contains("ping socket");
        }
    }

    private static int closedUdpPort() throws SocketException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A loopback UDP server answering each datagram with {@code answer(request)}, or not at all for null. */
    private static final class UdpResponder implements AutoCloseable {
        private final DatagramSocket socket;
        private final Thread thread;
        volatile String lastRequest;

        UdpResponder(UnaryOperator<String> answer) throws SocketException {
            socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                byte[] buffer = new byte[2048];
                while (!socket.isClosed()) {
                    try {
                        DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                        socket.receive(in);
                        lastRequest = new String(in.getData(), 0, in.getLength(), StandardCharsets.UTF_8);
                        String reply = answer.apply(lastRequest);
                        if (reply != null) {
                            byte[] out = reply.getBytes(StandardCharsets.UTF_8);
                            socket.send(new DatagramPacket(out, out.length, in.getSocketAddress()));
                        }
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "udp-responder");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            socket.close();
        }
    }
}
