package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Epoll loops keep their registrations in an {@link FdTable}. Fails on a Netty whose epoll loop no longer has the
 * field {@link EpollRegistrations} replaces, so that an upgrade notices it lost the table.
 */
class EpollRegistrationsTest {

    @BeforeAll
    static void epollOnly() {
        assumeTrue(ChosenTransport.isAvailable(ProbeTransport.EPOLL), "epoll is not available here");
    }

    @Test
    void probesOnAnEpollLoopRegisterInTheTableAndLeaveItEmpty() throws Exception {
        IoHandlerFactory factory = EpollRegistrations.factory();
        AtomicReference<IoHandler> handler = new AtomicReference<>();
        MultiThreadIoEventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, executor -> {
            IoHandler h = factory.newHandler(executor);
            handler.set(h);
            return h;
        });
        try (ServerSocket up = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                     .withAllowList(ProbeEngineConfig.LOOPBACK).withTransport(ProbeTransport.EPOLL), loops)) {
            FdTable<?> table = EpollRegistrations.tableOf(handler.get());
            assertThat(table).as("the epoll loop's registrations").isNotNull();
            // read on the loop, which owns the table; the loop's own descriptors, if any, are counted before
            int before = loops.next().submit(table::size).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);

            TargetSpec open = Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS);
            TargetSpec refused = Targets.tcp(TcpProberTest.closedPort(), Targets.GENEROUS_MS);
            TargetSpec http = Targets.http(TcpProberTest.closedPort(), Targets.GENEROUS_MS);
            List<CompletableFuture<ProbeReport>> reports = new ArrayList<>();
            for (int burst = 0; burst < 10; burst++) {
                for (int i = 0; i < 100; i++) {
                    reports.add(engine.probe(open));
                    reports.add(engine.probe(refused));
                    reports.add(engine.probe(http));
                }
            }
            CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new))
                    .get(Targets.GENEROUS_MS + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS);
            Map<Outcome, Long> outcomes = reports.stream().map(CompletableFuture::join)
                    .collect(Collectors.groupingBy(ProbeReport::outcome, Collectors.counting()));
            assertThat(outcomes).containsExactlyInAnyOrderEntriesOf(Map.of(
                    Outcome.SUCCESS, 1_000L, Outcome.CONNECTION_REFUSED, 2_000L));
            // every socket's registration was dropped from the table
            int after = loops.next().submit(table::size).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
            assertThat(after).isEqualTo(before);
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
