package io.healthmesh.probe.transport;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How the engine chooses its transport: auto takes the best this system runs, a forced one is used or refused with
 * its cause, and a group given by the caller decides. The refusal is checked in a child JVM where Netty's native
 * transports are switched off ({@code -Dio.netty.transport.noNative=true}), since availability is fixed per JVM.
 */
class TransportSelectionTest {

    @Test
    void everyTransportOfThisLinuxSystemCanHoldBackTheHandshakesLastAck() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "TCP_QUICKACK is Linux's");
        for (ProbeTransport kind : TransportOutcomesTest.available()) {
            assertThat(new ChosenTransport(kind, kind, "test").quickAckOption()).as(kind.settingName()).isNotNull();
        }
    }

    @Test
    void autoTakesTheBestAvailableAndSaysWhyTheBetterOnesWereNot() {
        // io_uring is never taken by auto (its completion queue overflowed under the full benchmark's load)
        ProbeTransport best = ChosenTransport.isAvailable(ProbeTransport.EPOLL) ? ProbeTransport.EPOLL : ProbeTransport.NIO;
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null)) {
            ChosenTransport chosen = engine.transport();
            assertThat(chosen.kind()).isEqualTo(best);
            assertThat(chosen.requested()).isEqualTo(ProbeTransport.AUTO);
            assertThat(chosen.describe()).startsWith("probe transport " + best.settingName() + " (auto");
            assertThat(chosen.reason()).doesNotContain("io_uring");
            if (best == ProbeTransport.NIO) {
                assertThat(chosen.reason()).contains("epoll unavailable (");
            }
        }
    }

    @Test
    void forcedNioIsUsedWhateverElseIsAvailable() throws Exception {
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1).withTransport(ProbeTransport.NIO),
                null);
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000))) {
            assertThat(engine.transport().kind()).isEqualTo(ProbeTransport.NIO);
            assertThat(engine.transport().reason()).isEqualTo("forced by transport=nio");
            ProbeReport report = engine.probe(Targets.tcp(server.port(), Targets.GENEROUS_MS))
                    .get(Targets.GENEROUS_MS + 5000L, TimeUnit.MILLISECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }

    @Test
    void theCallersGroupDecidesAndAConflictingForcedTransportIsRefused() {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults(), group)) {
                assertThat(engine.transport().kind()).isEqualTo(ProbeTransport.NIO);
            }
            assertThatThrownBy(() -> NettyProbeEngine.create(ProbeEngineConfig.defaults()
                    .withTransport(ProbeTransport.EPOLL), group))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("transport: epoll (expected: nio or auto, the transport of the given event-loop group)");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void settingNamesParseAndAnUnknownOneIsRejected() {
        assertThat(ProbeTransport.parse(" IO_URING ")).isEqualTo(ProbeTransport.IO_URING);
        assertThat(ProbeTransport.parse("epoll")).isEqualTo(ProbeTransport.EPOLL);
        assertThat(ProbeTransport.parse("nio")).isEqualTo(ProbeTransport.NIO);
        assertThat(ProbeTransport.parse("auto")).isEqualTo(ProbeTransport.AUTO);
        assertThatThrownBy(() -> ProbeTransport.parse("kqueue"))
                .hasMessage("transport: kqueue (expected: auto|io_uring|epoll|nio)");
    }

    @Test
    void aForcedUnavailableTransportFailsTheStartNamingTheCauseAndAutoFallsBackToNio() throws Exception {
        String out = runChild();
        assertThat(out).contains("auto=probe transport nio (auto: epoll unavailable (")
                .contains("noNative");
        for (String forced : List.of("epoll", "io_uring")) {
            assertThat(out).contains(forced + "=IllegalStateException: transport: " + forced + " (unavailable: ")
                    .contains("expected: auto, nio or an available native transport)");
        }
    }

    private static String runChild() throws IOException, InterruptedException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process child = new ProcessBuilder(java, "-Dio.netty.transport.noNative=true", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), NoNativeChild.class.getName())
                .redirectErrorStream(true).start();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (InputStream in = child.getInputStream()) {
            in.transferTo(buffer);
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(out).isZero();
        return out;
    }

    /** The child JVM: tries each transport and prints what the engine said. */
    static final class NoNativeChild {
        public static void main(String[] args) {
            for (ProbeTransport t : List.of(ProbeTransport.AUTO, ProbeTransport.EPOLL, ProbeTransport.IO_URING)) {
                try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                        .withEventLoopThreads(1).withTransport(t), null)) {
                    System.out.println(t.settingName() + "=" + engine.transport().describe());
                } catch (IllegalStateException e) {
                    System.out.println(t.settingName() + "=IllegalStateException: " + e.getMessage());
                }
            }
        }
    }
}
