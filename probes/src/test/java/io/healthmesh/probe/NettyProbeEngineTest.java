package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.transport.ChosenTransport;
import io.healthmesh.probe.transport.ProbeTransport;
import io.healthmesh.testkit.Await;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class NettyProbeEngineTest {

    @Test
    void manyConcurrentProbesAllEndWithTheRightOutcome() throws Exception {
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(2), null);
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000))) {
            int refusedPort = LoopbackPorts.closedPort();
            List<CompletableFuture<ProbeReport>> open = new ArrayList<>();
            List<CompletableFuture<ProbeReport>> refused = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                open.add(engine.probe(Targets.tcp(server.port(), Targets.GENEROUS_MS)));
                refused.add(engine.probe(Targets.tcp(refusedPort, Targets.GENEROUS_MS)));
            }
            for (CompletableFuture<ProbeReport> f : open) {
                assertThat(f.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
            }
            for (CompletableFuture<ProbeReport> f : refused) {
                assertThat(f.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
            }
            assertThat(engine.inFlight()).isZero();
        }
    }

    @Test
    void closingEndsProbesInFlightInsteadOfLeavingThemHanging() throws Exception {
        CountDownLatch requestSeen = new CountDownLatch(1);
        try (ScriptedServer server = ScriptedServer.http((s, head, srv) -> {
            requestSeen.countDown();
            srv.awaitClose(30_000);
        })) {
            NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
            TargetSpec slow = Targets.http(server.port(), 30_000);
            CompletableFuture<ProbeReport> pending = engine.probe(slow);
            assertThat(requestSeen.await(10, TimeUnit.SECONDS)).isTrue();
            engine.close();
            ProbeReport report = pending.get(30, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(report.detail()).isEqualTo("internal-error: probe engine closed");
            assertThat(engine.probe(slow).get(1, TimeUnit.SECONDS).detail()).isEqualTo("internal-error: probe engine closed");
        }
    }

    @Test
    void badInputIsAnInconclusiveReportNotAnException() throws Exception {
        // the validator keeps such definitions from a prober; if one gets through, it must not vote against a target
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null)) {
            assertThat(engine.probe(null).get(1, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            TargetSpec badStatus = Targets.http(LoopbackPorts.closedPort(), 1000)
                    .withHttp(new io.healthmesh.core.target.HttpSpec(io.healthmesh.core.target.HttpMethod.HEAD, "/", null,
                            List.of("abc"), false, java.util.Map.of(), null, false));
            ProbeReport report = engine.probe(badStatus).get(30, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(report.detail()).startsWith("internal-error: ")
                    .contains("http.expectedStatuses: \"abc\" (expected: 1xx..5xx or a code 100..599)");
            TargetSpec headerInjection = Targets.http(LoopbackPorts.closedPort(), 1000)
                    .withHttp(new io.healthmesh.core.target.HttpSpec(io.healthmesh.core.target.HttpMethod.HEAD, "/", null,
                            List.of("2xx"), false, java.util.Map.of("X-A", "1\r\nX-Injected: 1"), null, false));
            assertThat(engine.probe(headerInjection).get(30, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        }
    }

    @Test
    void closingAnEngineOnACallerOwnedGroupClosesItsSocketsAtOnce() throws Exception {
        ChosenTransport transport = ChosenTransport.choose(ProbeTransport.AUTO); // epoll here: channel-free checks
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        // a listener that never accepts: the kernel completes each handshake, the request waits unanswered
        try (ServerSocket silent = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
            TargetSpec target = Targets.http(silent.getLocalPort(), 60_000);
            NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                    .withAllowList(ProbeEngineConfig.LOOPBACK), group);
            // the engine's own descriptors and first class loads, before counting
            engine.probe(Targets.tcp(silent.getLocalPort(), Targets.GENEROUS_MS)).get(30, TimeUnit.SECONDS);
            OpenDescriptors before = OpenDescriptors.now();
            List<CompletableFuture<ProbeReport>> pending = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                pending.add(engine.probe(target));
            }
            // the count is the whole JVM's: a few other descriptors (an earlier test's, closed by the collector) may
            // go meanwhile, so wait for nearly all of the 100 rather than an exact sum
            Await.until(Duration.ofSeconds(20), () -> openNow() >= before.count() + 90,
                    () -> "100 probe sockets open; " + openNow() + " open, " + before.count() + " before");

            engine.close();
            for (CompletableFuture<ProbeReport> report : pending) {
                assertThat(report.get(5, TimeUnit.SECONDS).detail()).isEqualTo("internal-error: probe engine closed");
            }
            // well before the probes' 60 s deadlines; the caller's loop keeps running
            Await.until(Duration.ofSeconds(10), () -> openNow() <= before.count() + 2,
                    () -> "sockets still open after close(): " + describeNow(before));
            assertThat(group.isShuttingDown()).isFalse();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static int openNow() {
        try {
            return OpenDescriptors.now().count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String describeNow(OpenDescriptors before) {
        try {
            return OpenDescriptors.now().addedSince(before);
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test
    void runsOnACallerOwnedGroupAndLeavesItRunning() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000))) {
            try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK), group)) {
                assertThat(engine.probe(Targets.tcp(server.port(), Targets.GENEROUS_MS)).get(30, TimeUnit.SECONDS).outcome())
                        .isEqualTo(Outcome.SUCCESS);
            }
            assertThat(group.isShuttingDown()).isFalse();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
