package io.healthmesh.probe.transport;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A channel-free check whose handler throws (a bug) ends its own probe at once, {@code INCONCLUSIVE}
 * ({@code internal-error}), and leaves the other checks on its loop alone: the exception never reaches the loop.
 * The probes here have no deadline, so a probe left to one would never end.
 */
class ChannelFreeHandlerFaultTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @BeforeAll
    static void epollOnly() {
        assumeTrue(ChosenTransport.isAvailable(ProbeTransport.EPOLL), "epoll is not available here");
    }

    @Test
    void aHandlerThatThrowsEndsItsProbeInconclusiveAndSparesTheLoopsOtherChecks() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NettyInternals.epollFactory());
        try (ServerSocket up = new ServerSocket(0, 1000, LOOPBACK)) {
            EventLoop loop = group.next();
            InetSocketAddress remote = new InetSocketAddress(LOOPBACK, up.getLocalPort());
            List<CompletableFuture<ProbeReport>> faulty = new ArrayList<>();
            List<CompletableFuture<ProbeReport>> sound = new ArrayList<>();
            loop.submit(() -> {
                for (int i = 0; i < 50; i++) { // interleaved, so that sound checks share the faulty ones' batches
                    ProbeContext bad = ProbeFixtures.on(loop, Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS));
                    faulty.add(ProbeFixtures.report(bad));
                    new FaultyExchange(bad).start(remote);
                    ProbeContext good = ProbeFixtures.on(loop, Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS));
                    sound.add(ProbeFixtures.report(good));
                    ChannelFreeConnectCheck.start(good, remote, null);
                }
            }).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);

            for (CompletableFuture<ProbeReport> report : faulty) {
                ProbeReport r = report.get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
                assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.INCONCLUSIVE);
                assertThat(r.detail()).isEqualTo("internal-error: IllegalStateException: a bug in a handler");
            }
            for (CompletableFuture<ProbeReport> report : sound) {
                ProbeReport r = report.get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
                assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.SUCCESS);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** An exchange whose handler fails on the first event after the connect: the socket is writable. */
    private static final class FaultyExchange extends ChannelFreeConnection {
        FaultyExchange(ProbeContext probe) {
            super(probe);
        }

        void start(InetSocketAddress remote) {
            open(remote, null, true);
        }

        @Override
        protected void onConnected() {
            probe.connected();
        }

        @Override
        protected void onReady(boolean writable, boolean readable) {
            throw new IllegalStateException("a bug in a handler");
        }
    }
}
