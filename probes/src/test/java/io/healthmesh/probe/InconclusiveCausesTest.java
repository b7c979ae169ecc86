package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.resolve.HostResolver;
import io.healthmesh.probe.resolve.ResolverBusyException;
import io.healthmesh.probe.icmp.IcmpSocketKind;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each of the prober's own troubles that the engine sees ends a probe as INCONCLUSIVE with its cause leading the
 * detail, while a target's own answer stays what it is (BEHAVIOUR.md section 4).
 */
class InconclusiveCausesTest {

    private static final long BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    @Test
    void aTimeoutWhoseDeadlineRanLateIsALoopStall() {
        EmbeddedChannel owner = new EmbeddedChannel();
        owner.freezeTime();
        ProbeContext probe = new ProbeContext(Targets.tcp(9, 1000), owner.eventLoop(), System.nanoTime(),
                LoopWatch.Stalls.NONE, BOUND_NANOS);
        probe.armDeadline();
        owner.advanceTimeBy(1600, TimeUnit.MILLISECONDS); // the loop ran the deadline 600 ms late
        owner.runScheduledPendingTasks();
        ProbeReport report = probe.result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(report.detail()).startsWith("loop-stall: event loop stalled 600 ms").contains("TIMEOUT");
        assertThat(InconclusiveCause.ofDetail(report.detail())).contains(InconclusiveCause.LOOP_STALL);
    }

    @Test
    void aTimeoutOnTimeStaysATimeout() {
        EmbeddedChannel owner = new EmbeddedChannel();
        owner.freezeTime();
        ProbeContext probe = new ProbeContext(Targets.tcp(9, 1000), owner.eventLoop(), System.nanoTime(),
                LoopWatch.Stalls.NONE, BOUND_NANOS);
        probe.armDeadline();
        owner.advanceTimeBy(1100, TimeUnit.MILLISECONDS); // 100 ms late: below the bound
        owner.runScheduledPendingTasks();
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void aStallSeenByTheWatchWhileTheProbeRanMakesItsTimeoutInconclusiveButNotARefusal() {
        EmbeddedChannel owner = new EmbeddedChannel();
        owner.freezeTime();
        LoopWatch.Stalls stalls = new LoopWatch.Stalls();
        long start = owner.eventLoop().ticker().nanoTime();
        ProbeContext timedOut = new ProbeContext(Targets.tcp(9, 1000), owner.eventLoop(), System.nanoTime(), stalls,
                BOUND_NANOS);
        ProbeContext refused = new ProbeContext(Targets.tcp(9, 1000), owner.eventLoop(), System.nanoTime(), stalls,
                BOUND_NANOS);
        stalls.record(start + TimeUnit.MILLISECONDS.toNanos(400), TimeUnit.MILLISECONDS.toNanos(300));
        timedOut.finish(Outcome.TIMEOUT, "no verdict within 1000 ms (connecting)");
        refused.finish(Outcome.CONNECTION_REFUSED, "refused");
        assertThat(timedOut.result().join().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(timedOut.result().join().detail()).startsWith("loop-stall: event loop stalled 300 ms");
        assertThat(refused.result().join().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
    }

    @Test
    void aStallThatEndedBeforeTheProbeStartedDoesNotCount() {
        LoopWatch.Stalls stalls = new LoopWatch.Stalls();
        stalls.record(1_000_000_000L, 900_000_000L);
        assertThat(stalls.overlapNanos(1_000_000_000L)).isZero();
        assertThat(stalls.overlapNanos(800_000_000L)).isEqualTo(200_000_000L);
        assertThat(stalls.overlapNanos(0)).isEqualTo(900_000_000L);
        LoopWatch.Stalls.NONE.record(5, 5);
        assertThat(LoopWatch.Stalls.NONE.overlapNanos(0)).isZero();
    }

    @Test
    void theWatchMeasuresABlockedLoop() throws Exception {
        io.netty.channel.EventLoopGroup group = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        try (LoopWatch watch = LoopWatch.start(group)) {
            group.next().submit(() -> sleep(400)).get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long worst = 0;
            while (worst < 300_000 && System.nanoTime() < deadline) {
                worst = Math.max(worst, watch.takeWorstMicros());
                Thread.sleep(20);
            }
            assertThat(worst).as("worst loop lag, µs").isGreaterThanOrEqualTo(300_000);
            long since = group.next().ticker().nanoTime() - TimeUnit.SECONDS.toNanos(5);
            long overlap = group.next().submit(() -> watch.of(group.next()).overlapNanos(since)).get(10, TimeUnit.SECONDS);
            assertThat(overlap).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void aBusyResolverIsQueueFullNotADnsFailure() throws Exception {
        HostResolver busy = new HostResolver() {
            @Override
            public CompletableFuture<InetAddress> resolve(String host) {
                return CompletableFuture.failedFuture(new ResolverBusyException(host + ": 10000 lookups waiting"));
            }

            @Override
            public void close() {
            }
        };
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1),
                null, busy)) {
            ProbeReport report = engine.probe(Targets.target(io.healthmesh.core.target.Protocol.TCP, "busy.example", 80,
                    1000)).get(30, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(report.detail()).startsWith("queue-full: cannot resolve busy.example");
        }
    }

    @Test
    void aFullIcmpTableIsQueueFull() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "127.0.0.1");
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, () -> why);
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1)
                .withIcmp(IcmpSocketKind.AUTO, 1), null);
             DeadEndNetwork network = DeadEndNetwork.create()) {
            org.junit.jupiter.api.Assumptions.assumeTrue(network.unavailableReason() == null, network::unavailableReason);
            String silent = network.silentAddress().getHostAddress();
            CompletableFuture<ProbeReport> first = engine.probe(Targets.target(io.healthmesh.core.target.Protocol.ICMP,
                    silent, 0, 2000));
            ProbeReport second = engine.probe(Targets.target(io.healthmesh.core.target.Protocol.ICMP, silent, 0, 2000)).get(30, TimeUnit.SECONDS);
            assertThat(second.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(second.detail()).startsWith("queue-full: too many ICMP echoes in flight");
            first.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void anExceptionInOurOwnCodeIsAnInternalError() {
        ProbeContext probe = new ProbeContext(Targets.tcp(9, 1000), new EmbeddedChannel().eventLoop(), System.nanoTime());
        probe.internalError(new IllegalStateException("bug"));
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(probe.result().join().detail()).isEqualTo("internal-error: IllegalStateException: bug");
        assertThat(List.of(InconclusiveCause.values())).extracting(InconclusiveCause::label)
                .containsExactly("late-start", "queue-full", "loop-stall", "internal-error", "local-ports");
    }

    private static Object sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }
}
