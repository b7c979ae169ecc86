package io.healthmesh.probe.transport;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The same probes give the same outcomes on every transport this system can run (NIO always, epoll, io_uring). */
class TransportOutcomesTest {

    static List<ProbeTransport> available() {
        return List.of(ProbeTransport.IO_URING, ProbeTransport.EPOLL, ProbeTransport.NIO).stream()
                .filter(ChosenTransport::isAvailable).toList();
    }

    private static NettyProbeEngine engine(ProbeTransport transport) {
        NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1).withTransport(transport), null);
        assertThat(engine.transport().kind()).isEqualTo(transport);
        return engine;
    }

    private static ProbeReport run(NettyProbeEngine engine, TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    @ParameterizedTest
    @MethodSource("available")
    void tcpConnectSucceedsAndARefusedConnectFailsAtOnce(ProbeTransport transport) throws Exception {
        try (NettyProbeEngine engine = engine(transport);
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000))) {
            ProbeReport up = run(engine, Targets.tcp(server.port(), Targets.GENEROUS_MS));
            assertThat(up.outcome()).as(up.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(up.connectMicros()).isNotNull().isPositive();
            ProbeReport refused = run(engine, Targets.tcp(LoopbackPorts.closedPort(), Targets.GENEROUS_MS));
            assertThat(refused.outcome()).as(refused.detail()).isEqualTo(Outcome.CONNECTION_REFUSED);
            assertThat(refused.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(Targets.GENEROUS_MS / 2));
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void aConnectCheckEndsBeforeTheTargetCompletesTheConnection(ProbeTransport transport) throws Exception {
        try (NettyProbeEngine engine = engine(transport);
             ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(500);
            // the control: a client that completes the handshake leaves a connection to accept, reset or not
            try (Socket client = new Socket()) {
                client.setSoLinger(true, 0);
                client.connect(listener.getLocalSocketAddress(), 2000);
            }
            try (Socket accepted = listener.accept()) {
                assertThat(accepted.isConnected()).isTrue();
            }
            for (int i = 0; i < 3; i++) {
                ProbeReport up = run(engine, Targets.tcp(listener.getLocalPort(), Targets.GENEROUS_MS));
                assertThat(up.outcome()).as(up.detail()).isEqualTo(Outcome.SUCCESS);
            }
            // SYN, SYN-ACK, reset: the handshake's last ACK was held back, so nothing reached the accept queue
            assertThatThrownBy(listener::accept).isInstanceOf(SocketTimeoutException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void tcpPayloadExchangeReadsTheResponse(ProbeTransport transport) throws Exception {
        try (NettyProbeEngine engine = engine(transport);
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.write(s, "+PONG\r\n"))) {
            ProbeReport report = run(engine, Targets.tcp(server.port(), Targets.GENEROUS_MS)
                    .withTcp(new TcpSpec("PING\r\n", "PONG")));
            assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.bytesRead()).isEqualTo(7);
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void aBannerCheckIsNotKeptWaitingByAHeldBackAck(ProbeTransport transport) throws Exception {
        // the target speaks first, and its kernel hands it the connection only once the handshake's last ACK arrives:
        // were that ACK held back (TCP_QUICKACK 0), every check would wait for Linux's 200 ms delayed-ACK timer
        try (NettyProbeEngine engine = engine(transport);
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> {
                 srv.write(s, "220 ready\r\n");
                 srv.awaitClose(5000);
             })) {
            long fastestMicros = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                ProbeReport report = run(engine, Targets.tcp(server.port(), Targets.GENEROUS_MS)
                        .withTcp(new TcpSpec(null, "220")));
                assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
                fastestMicros = Math.min(fastestMicros, report.latencyMicros());
            }
            // the fastest of three, so that one stalled run on a busy machine cannot fail the test
            assertThat(fastestMicros).isLessThan(TimeUnit.MILLISECONDS.toMicros(150));
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void http200SucceedsAnd503Fails(ProbeTransport transport) throws Exception {
        try (NettyProbeEngine engine = engine(transport);
             ScriptedServer ok = ScriptedServer.http((s, head, srv) ->
                     srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
             ScriptedServer down = ScriptedServer.http((s, head, srv) ->
                     srv.write(s, "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport up = run(engine, Targets.http(ok.port(), Targets.GENEROUS_MS));
            assertThat(up.outcome()).as(up.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(up.httpStatus()).isEqualTo(200);
            ProbeReport unavailable = run(engine, Targets.http(down.port(), Targets.GENEROUS_MS));
            assertThat(unavailable.outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
            assertThat(unavailable.httpStatus()).isEqualTo(503);
        }
    }

    @ParameterizedTest
    @MethodSource("available")
    void udpEchoSucceedsAndAClosedPortIsPortUnreachable(ProbeTransport transport) throws Exception {
        try (NettyProbeEngine engine = engine(transport);
             DatagramSocket echo = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            Thread responder = new Thread(() -> {
                byte[] buffer = new byte[2048];
                try {
                    DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                    echo.receive(in);
                    echo.send(new DatagramPacket(in.getData(), in.getLength(), in.getSocketAddress()));
                } catch (IOException e) {
                    // closed by the test
                }
            }, "udp-echo");
            responder.setDaemon(true);
            responder.start();
            ProbeReport up = run(engine, udp(echo.getLocalPort()));
            assertThat(up.outcome()).as(up.detail()).isEqualTo(Outcome.SUCCESS);
            assertThat(up.bytesRead()).isEqualTo(4);
            ProbeReport closed = run(engine, udp(closedUdpPort()));
            assertThat(closed.outcome()).as(closed.detail()).isEqualTo(Outcome.PORT_UNREACHABLE);
        }
    }

    private static TargetSpec udp(int port) {
        return Targets.target(Protocol.UDP, "127.0.0.1", port, Targets.GENEROUS_MS)
                .withUdp(new UdpSpec(UdpMode.PAYLOAD, "PING", "PING"));
    }

    private static int closedUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
