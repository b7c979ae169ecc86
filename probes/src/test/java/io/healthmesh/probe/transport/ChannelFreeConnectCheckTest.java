package io.healthmesh.probe.transport;

import io.healthmesh.probe.Unstalled;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.OpenDescriptors;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.Targets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The epoll transport's connect-only check without a channel ({@link ChannelFreeConnectCheck}): every way it ends releases
 * its socket, and the source address is bound before the connect. Its outcomes against the other transports' are in
 * {@code TransportOutcomesTest}, its deadline in {@code TcpProberTest}.
 */
class ChannelFreeConnectCheckTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @BeforeAll
    static void epollOnly() {
        assumeTrue(ChosenTransport.isAvailable(ProbeTransport.EPOLL), "epoll is not available here");
    }

    private static NettyProbeEngine engine(ProbeTransport transport, ProbeSource source) {
        return NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1).withTransport(transport), null, source);
    }


    @Test
    void everyCheckReleasesItsSocketHoweverItEnds() throws Exception {
        try (NettyProbeEngine engine = engine(ProbeTransport.EPOLL, ProbeSource.NONE);
             ServerSocket up = new ServerSocket(0, 4096, LOOPBACK);
             ServerSocket full = new ServerSocket(0, 1, LOOPBACK)) {
            List<Socket> fillers = LoopbackPorts.fillAcceptQueue(full.getLocalPort());
            assumeTrue(fillers != null, "could not fill the accept queue of a loopback listener");
            try {
                TargetSpec open = Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS);
                TargetSpec refused = Targets.tcp(LoopbackPorts.closedPort(), Targets.GENEROUS_MS);
                TargetSpec silent = Targets.tcp(full.getLocalPort(), 300);
                // the engine's own descriptors (event loop, ICMP, first class loads) are open before counting
                for (TargetSpec target : List.of(open, refused, silent)) {
                    engine.probe(target).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
                }
                OpenDescriptors before = OpenDescriptors.now();

                List<CompletableFuture<ProbeReport>> reports = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    reports.add(engine.probe(open));
                    reports.add(engine.probe(refused));
                }
                assertThat(outcomes(reports)).containsExactlyInAnyOrderEntriesOf(Map.of(
                        Outcome.SUCCESS, 500L, Outcome.CONNECTION_REFUSED, 500L));
                // after the burst, and each again while a starved machine stalls the loop into an INCONCLUSIVE
                // verdict (every attempt's socket counts below too)
                List<ProbeReport> timeouts = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    timeouts.add(Unstalled.check(() -> engine.probe(silent)
                            .get(Targets.GENEROUS_MS + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS)));
                }
                assertThat(timeouts.stream().collect(Collectors.groupingBy(ProbeReport::outcome, Collectors.counting())))
                        .containsExactlyInAnyOrderEntriesOf(Map.of(Outcome.TIMEOUT, 10L));
                assertThat(engine.inFlight()).isZero();
                // 1,010 sockets opened: a leak of even one per outcome kind would show
                OpenDescriptors after = OpenDescriptors.now();
                assertThat(after.count()).as("descriptors opened meanwhile: %s", after.addedSince(before))
                        .isLessThanOrEqualTo(before.count() + 2);
            } finally {
                for (Socket s : fillers) {
                    s.close();
                }
            }
        }
    }

    private static Map<Outcome, Long> outcomes(List<CompletableFuture<ProbeReport>> reports) throws Exception {
        CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new))
                .get(Targets.GENEROUS_MS + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS);
        return reports.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(ProbeReport::outcome, Collectors.counting()));
    }

    @Test
    void theSourceAddressIsBoundBeforeTheConnect() throws Exception {
        InetAddress elsewhere = InetAddress.getByName("192.0.2.1"); // TEST-NET-1: no host has it
        assumeTrue(NetworkInterface.getByInetAddress(elsewhere) == null, "192.0.2.1 is an address of this host");
        try (ServerSocket up = new ServerSocket(0, 50, LOOPBACK)) {
            TargetSpec target = Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS);
            try (NettyProbeEngine fromLoopback = engine(ProbeTransport.EPOLL,
                    new ProbeSource(InetAddress.getByName("127.0.0.2"), null))) {
                ProbeReport report = fromLoopback.probe(target).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
                assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
            }
            // an address the kernel will not bind to: the check fails at the bind, as a channel's connect does
            Function<ProbeTransport, ProbeReport> fromElsewhere = transport -> {
                try (NettyProbeEngine engine = engine(transport, new ProbeSource(elsewhere, null))) {
                    return engine.probe(target).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            ProbeReport channelFree = fromElsewhere.apply(ProbeTransport.EPOLL);
            ProbeReport channel = fromElsewhere.apply(ProbeTransport.NIO);
            assertThat(channelFree.detail()).containsIgnoringCase("assign requested address");
            // EADDRNOTAVAIL is the prober's own trouble (no local address and port), never the target's
            assertThat(channelFree.outcome()).as(channelFree.detail()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(channelFree.detail()).startsWith("local-ports: ");
            assertThat(channelFree.outcome()).as(channelFree.detail() + " / " + channel.detail())
                    .isEqualTo(channel.outcome());
        }
    }
}
