package io.healthmesh.probe.icmp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.DeadEndNetwork;
import io.healthmesh.probe.IcmpSupport;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class IcmpProberTest {

    private static ProbeReport probe(IcmpSocketKind kind, String address, int timeoutMs) throws Exception {
        try (NettyProbeEngine engine = NettyProbeEngine.create(
                ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1).withIcmp(kind, 16), null)) {
            TargetSpec target = Targets.target(Protocol.ICMP, address, 80, timeoutMs);
            return engine.probe(target).get(timeoutMs + 5000L, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void loopbackAnswersIpv4() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "127.0.0.1");
        assumeTrue(why == null, () -> why);
        ProbeReport report = probe(IcmpSocketKind.AUTO, "127.0.0.1", Targets.GENEROUS_MS);
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).startsWith("echo reply in");
    }

    @Test
    void loopbackAnswersIpv6() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "::1");
        assumeTrue(why == null, () -> why);
        assertThat(probe(IcmpSocketKind.AUTO, "::1", Targets.GENEROUS_MS).outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void rawSocketsAnswerWhenPermitted() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.RAW, "127.0.0.1");
        assumeTrue(why == null, () -> why + " (raw sockets need CAP_NET_RAW)");
        assertThat(probe(IcmpSocketKind.RAW, "127.0.0.1", Targets.GENEROUS_MS).outcome()).isEqualTo(Outcome.SUCCESS);
        String whyV6 = IcmpSupport.whyNot(IcmpSocketKind.RAW, "::1");
        assumeTrue(whyV6 == null, () -> whyV6);
        assertThat(probe(IcmpSocketKind.RAW, "::1", Targets.GENEROUS_MS).outcome()).isEqualTo(Outcome.SUCCESS);
    }

    /** Either the system allows ping sockets and loopback answers, or the probe is INCONCLUSIVE and says why. */
    @Test
    void pingSocketsAnswerOrTheErrorNamesPingGroupRange() throws Exception {
        ProbeReport report = probe(IcmpSocketKind.PING, "127.0.0.1", Targets.GENEROUS_MS);
        if (IcmpSupport.whyNot(IcmpSocketKind.PING, "127.0.0.1") == null) {
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        } else {
            assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(report.detail()).startsWith("internal-error: ").contains("ping socket").contains("ping_group_range");
        }
    }

    @Test
    void addressWithNoHostTimesOutAndEchoesInFlightAreBounded() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.AUTO, "127.0.0.1");
        assumeTrue(why == null, () -> why);
        try (DeadEndNetwork network = DeadEndNetwork.create()) {
            assumeTrue(network.unavailableReason() == null, network::unavailableReason);
            String silent = network.silentAddress().getHostAddress();

            ProbeReport report = Unstalled.check(() -> probe(IcmpSocketKind.AUTO, silent, 800));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.latencyMicros()).isBetween(TimeUnit.MILLISECONDS.toMicros(790), TimeUnit.MILLISECONDS.toMicros(800 + Targets.DEADLINE_SLACK_MS));

            try (IcmpPinger pinger = new IcmpPinger(IcmpSocketKind.AUTO, 1)) {
                CompletableFuture<EchoResult> first = pinger.echo(network.silentAddress(), TimeUnit.MILLISECONDS.toNanos(500));
                EchoResult second = pinger.echo(network.silentAddress(), TimeUnit.MILLISECONDS.toNanos(500)).get(1, TimeUnit.SECONDS);
                assertThat(second.status()).isEqualTo(EchoResult.Status.UNAVAILABLE);
                assertThat(second.detail()).contains("too many ICMP echoes in flight");
                assertThat(first.get(5, TimeUnit.SECONDS).status()).isEqualTo(EchoResult.Status.TIMEOUT);
                assertThat(pinger.outstanding()).isZero();
            }
        }
    }

    /**
     * On a raw socket the kernel's own "host unreachable" (sent once ARP for the silent address gives up, about
     * 3 s with default neighbour settings) is matched to our echo.
     */
    @Test
    void rawSocketSeesHostUnreachableForTheSilentAddress() throws Exception {
        String why = IcmpSupport.whyNot(IcmpSocketKind.RAW, "127.0.0.1");
        assumeTrue(why == null, () -> why + " (raw sockets need CAP_NET_RAW)");
        try (DeadEndNetwork network = DeadEndNetwork.create()) {
            assumeTrue(network.unavailableReason() == null, network::unavailableReason);
            ProbeReport report = probe(IcmpSocketKind.RAW, network.silentAddress().getHostAddress(), 15_000);
            assertThat(report.outcome()).isEqualTo(Outcome.HOST_UNREACHABLE);
            assertThat(report.detail()).contains("ICMP host unreachable");
        }
    }

    @Test
    void closedPingerCompletesEchoesInsteadOfHanging() throws Exception {
        IcmpPinger pinger = new IcmpPinger(IcmpSocketKind.AUTO, 4);
        pinger.close();
        EchoResult result = pinger.echo(java.net.InetAddress.getLoopbackAddress(), TimeUnit.SECONDS.toNanos(1))
                .get(1, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(EchoResult.Status.UNAVAILABLE);
    }
}
