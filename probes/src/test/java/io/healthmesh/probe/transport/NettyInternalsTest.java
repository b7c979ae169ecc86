package io.healthmesh.probe.transport;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.LoopbackPorts;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.testkit.Await;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
 * What {@link NettyInternals} takes from Netty's internals still works on this Netty: epoll loops keep their
 * registrations in an {@link FdTable}, and Netty's native socket connects, sends and receives. Fails, saying what
 * changed, on a Netty upgrade that renamed or retyped the field or changed the socket, so that the upgrade notices.
 */
class NettyInternalsTest {

    @BeforeAll
    static void epollOnly() {
        assumeTrue(ChosenTransport.isAvailable(ProbeTransport.EPOLL), "epoll is not available here");
    }

    @Test
    void nettysEpollLoopStillHasTheRegistrationMapThatIsReplaced() {
        assertThat(NettyInternals.hasRegistrationsField())
                .withFailMessage("Netty's EpollIoHandler has no non-static IntObjectMap field '%s' any more (a Netty "
                        + "upgrade?): epoll loops now keep Netty's registration map, whose removals cost more with "
                        + "every socket in flight. Find the new field in NettyInternals, or drop FdTable after "
                        + "measuring again (docs/BENCHMARKS.md, RegistrationTableBenchmark)",
                        NettyInternals.REGISTRATIONS_FIELD)
                .isTrue();
    }

    @Test
    void nettysNativeSocketConnectsSendsAndReceivesOnBothFamilies() throws Exception {
        for (InetAddress loopback : List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"))) {
            if (loopback instanceof Inet6Address && !hasLoopback(loopback)) {
                continue; // no IPv6 loopback on this machine
            }
            try (ServerSocket listener = new ServerSocket(0, 1, loopback)) {
                NettyInternals.TcpSocket socket = new NettyInternals.TcpSocket(loopback instanceof Inet6Address);
                ByteBuf bytes = Unpooled.directBuffer(64);
                try {
                    socket.resetOnCloseWithoutQuickAck();
                    InetSocketAddress remote = new InetSocketAddress(loopback, listener.getLocalPort());
                    boolean connectedAtOnce = socket.connect(remote);
                    try (Socket accepted = listener.accept()) {
                        if (!connectedAtOnce) {
                            Await.until(Duration.ofSeconds(10), () -> finished(socket),
                                    () -> "Netty's native socket never finished connecting to " + remote);
                        }
                        bytes.writeBytes("ping".getBytes(StandardCharsets.US_ASCII));
                        assertThat(socket.send(bytes)).as("bytes sent by Netty's native socket").isEqualTo(4);
                        assertThat(accepted.getInputStream().readNBytes(4)).asString(StandardCharsets.US_ASCII)
                                .isEqualTo("ping");
                        accepted.getOutputStream().write("pong".getBytes(StandardCharsets.US_ASCII));
                        bytes.clear();
                        int[] read = new int[1];
                        Await.until(Duration.ofSeconds(10), () -> (read[0] = receive(socket, bytes)) != 0,
                                () -> "Netty's native socket received nothing");
                        assertThat(read[0]).as("bytes received by Netty's native socket").isEqualTo(4);
                        bytes.writerIndex(read[0]);
                        assertThat(bytes.toString(StandardCharsets.US_ASCII)).isEqualTo("pong");
                    }
                } finally {
                    bytes.release();
                    socket.close();
                }
            }
        }
    }

    private static boolean hasLoopback(InetAddress address) {
        try (ServerSocket ignored = new ServerSocket(0, 1, address)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aBoundSourceAddressTakesItsPortAtTheConnect() throws Exception {
        // IP_BIND_ADDRESS_NO_PORT: a bind to port 0 takes no port, so bound sources do not share one ephemeral range
        NettyInternals.TcpSocket socket = new NettyInternals.TcpSocket(false);
        try {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            assertThat(socket.localAddress().getPort()).as("no port taken before the connect").isZero();
        } finally {
            socket.close();
        }
    }

    private static boolean finished(NettyInternals.TcpSocket socket) {
        try {
            return socket.finishConnect();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int receive(NettyInternals.TcpSocket socket, ByteBuf into) {
        try {
            return socket.recv(into, into.writableBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void probesOnAnEpollLoopRegisterInTheTableAndLeaveItEmpty() throws Exception {
        IoHandlerFactory factory = NettyInternals.epollFactory();
        AtomicReference<IoHandler> handler = new AtomicReference<>();
        MultiThreadIoEventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, executor -> {
            IoHandler h = factory.newHandler(executor);
            handler.set(h);
            return h;
        });
        try (ServerSocket up = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                     .withAllowList(ProbeEngineConfig.LOOPBACK).withTransport(ProbeTransport.EPOLL), loops)) {
            FdTable<?> table = NettyInternals.tableOf(handler.get());
            assertThat(table).as("the epoll loop's registrations").isNotNull();
            // read on the loop, which owns the table; the loop's own descriptors, if any, are counted before
            int before = loops.next().submit(table::size).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);

            TargetSpec open = Targets.tcp(up.getLocalPort(), Targets.GENEROUS_MS);
            TargetSpec refused = Targets.tcp(LoopbackPorts.closedPort(), Targets.GENEROUS_MS);
            TargetSpec http = Targets.http(LoopbackPorts.closedPort(), Targets.GENEROUS_MS);
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
