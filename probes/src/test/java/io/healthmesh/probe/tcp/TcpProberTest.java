package io.healthmesh.probe.tcp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import io.healthmesh.probe.transport.ProbeBootstraps;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TcpProberTest {

    private static NettyProbeEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(2), null);
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    static ProbeReport run(io.healthmesh.core.target.TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 5000L, TimeUnit.MILLISECONDS);
    }

    @Test
    void onlyAProbeWithBytesToSendSpeaksFirst() {
        assertThat(TcpProber.opening(new TcpSpec("PING\r\n", null))).isEqualTo(ProbeBootstraps.TcpOpening.PROBE_WRITES_FIRST);
        assertThat(TcpProber.opening(new TcpSpec("PING\r\n", "PONG"))).isEqualTo(ProbeBootstraps.TcpOpening.PROBE_WRITES_FIRST);
        // a banner check, and an empty payload (nothing is written, so nothing would carry the ACK)
        assertThat(TcpProber.opening(new TcpSpec(null, "220"))).isEqualTo(ProbeBootstraps.TcpOpening.TARGET_SPEAKS_FIRST);
        assertThat(TcpProber.opening(new TcpSpec("", "220"))).isEqualTo(ProbeBootstraps.TcpOpening.TARGET_SPEAKS_FIRST);
    }

    @Test
    void establishedConnectionIsSuccessWithConnectPhase() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000))) {
            ProbeReport report = run(Targets.tcp(server.port(), Targets.GENEROUS_MS));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.connectMicros()).isNotNull().isPositive();
            assertThat(report.tlsMicros()).isNull();
        }
    }

    @Test
    void refusedConnectionFailsAtOnceNotAtTheDeadline() throws Exception {
        int port = LoopbackPorts.closedPort();
        ProbeReport report = run(Targets.tcp(port, Targets.GENEROUS_MS));
        assertThat(report.outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(Targets.GENEROUS_MS / 2));
    }

    @Test
    void listenerThatNeverAcceptsTimesOutByTheDeadline() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> fillers = LoopbackPorts.fillAcceptQueue(listener.getLocalPort());
            try {
                assumeTrue(fillers != null, "could not fill the accept queue of a loopback listener");
                ProbeReport report = Unstalled.check(() -> run(Targets.tcp(listener.getLocalPort(), 700)));
                assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
                assertThat(report.detail()).contains("connecting");
                assertThat(report.latencyMicros()).isBetween(TimeUnit.MILLISECONDS.toMicros(690),
                        TimeUnit.MILLISECONDS.toMicros(700 + Targets.DEADLINE_SLACK_MS));
            } finally {
                if (fillers != null) {
                    for (Socket s : fillers) {
                        s.close();
                    }
                }
            }
        }
    }

    @Test
    void payloadExchangeSucceedsWhenResponseContainsExpect() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> {
            byte[] in = s.getInputStream().readNBytes(4);
            srv.write(s, "+" + new String(in) + " OK\r\n");
            srv.awaitClose(5000);
        })) {
            ProbeReport report = run(Targets.tcp(server.port(), Targets.GENEROUS_MS).withTcp(new TcpSpec("PING", "PING OK")));
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(report.firstByteMicros()).isNotNull();
            assertThat(report.bytesRead()).isEqualTo(10);
        }
    }

    @Test
    void wrongPayloadIsUnexpectedResponse() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> {
            s.getInputStream().readNBytes(4);
            srv.write(s, "-ERR unknown command\r\n");
        })) {
            ProbeReport report = run(Targets.tcp(server.port(), Targets.GENEROUS_MS).withTcp(new TcpSpec("PING", "PONG")));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        }
    }

    @Test
    void endlessResponseWithoutExpectStopsAtTheByteLimit() throws Exception {
        byte[] chunk = new byte[8192];
        java.util.Arrays.fill(chunk, (byte) 'x');
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> {
            for (int i = 0; i < 10_000; i++) {
                srv.write(s, chunk);
            }
        })) {
            ProbeReport report = run(Targets.tcp(server.port(), Targets.GENEROUS_MS).withTcp(new TcpSpec(null, "never-there")));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.bytesRead()).isLessThanOrEqualTo(ProbeEngineConfig.DEFAULT_MAX_BODY_BYTES
                    + ProbeBootstraps.READ_BUFFER_BYTES);
        }
    }

    @Test
    void tricklingServerEndsByTheDeadline() throws Exception {
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> {
            for (int i = 0; i < 30 && !srv.awaitClose(1000); i++) {
                srv.write(s, "x");
            }
        })) {
            ProbeReport report = Unstalled.check(
                    () -> run(Targets.tcp(server.port(), 1500).withTcp(new TcpSpec(null, "done"))));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(1500 + Targets.DEADLINE_SLACK_MS));
            assertThat(report.bytesRead()).isLessThanOrEqualTo(3);
        }
    }
}
