package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.probe.resolve.HostResolver;
import io.healthmesh.probe.egress.AddressGate;
import io.netty.channel.DefaultEventLoop;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's count of probes in flight, as whoever holds a probe's future sees it. */
class ProbeRunnerTest {

    @Test
    void aProbeNoLongerCountsAsInFlightWhenItsReportReachesTheCaller() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            AtomicReference<ProbeContext> held = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            Prober holding = (probe, address) -> {
                held.set(probe);
                started.countDown();
            };
            Map<Protocol, Prober> probers = new EnumMap<>(Protocol.class);
            probers.put(Protocol.TCP, holding);
            // the target is an address literal, which the gate never sends to a resolver
            HostResolver unused = new HostResolver() {
                @Override
                public CompletableFuture<InetAddress> resolve(String host) {
                    return CompletableFuture.failedFuture(new IllegalStateException("no lookup expected: " + host));
                }

                @Override
                public void close() {
                }
            };
            ProbeRunner runner = new ProbeRunner(probers,
                    AddressGate.of(unused, ProbeEngineConfig.defaults().withDenyList(List.of())));

            CompletableFuture<ProbeReport> report = runner.run(Targets.target(Protocol.TCP, "192.0.2.7", 80, 2_000),
                    loop);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(runner.inFlight()).isOne();
            // registered before the probe ends, so it runs in the completing thread, as a waiting caller's would
            CompletableFuture<Integer> seen = report.thenApply(r -> runner.inFlight());
            loop.execute(() -> held.get().succeed("held until now"));

            assertThat(report.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(seen.get(10, TimeUnit.SECONDS)).as("in flight when the report arrived").isZero();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
