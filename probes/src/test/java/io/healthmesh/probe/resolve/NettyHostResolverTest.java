package io.healthmesh.probe.resolve;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.healthmesh.testkit.TinyDnsServer;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The asynchronous resolver against a tiny DNS server on loopback (and a server that never answers). */
class NettyHostResolverTest {

    private static DnsConfig servers(String... addresses) {
        return new DnsConfig(List.of(addresses), 500, 300, 5);
    }

    @Test
    void resolvesCachesForTheTtlAndMergesConcurrentLookups() throws Exception {
        try (TinyDnsServer dns = new TinyDnsServer(60).add("api.test.", "127.0.0.7").add("merged.test.", "127.0.0.8");
             NettyHostResolver resolver = new NettyHostResolver(servers(dns.address()), 100)) {
            assertThat(resolver.resolve("api.test").get(10, TimeUnit.SECONDS).getHostAddress()).isEqualTo("127.0.0.7");
            int afterFirst = dns.queriesFor("api.test");
            assertThat(resolver.resolve("api.test").get(10, TimeUnit.SECONDS).getHostAddress()).isEqualTo("127.0.0.7");
            assertThat(dns.queriesFor("api.test")).as("second lookup answered from the cache").isEqualTo(afterFirst);

            dns.delayAnswers(300);
            List<CompletableFuture<InetAddress>> together = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                together.add(resolver.resolve("merged.test"));
            }
            for (CompletableFuture<InetAddress> f : together) {
                assertThat(f.get(10, TimeUnit.SECONDS).getHostAddress()).isEqualTo("127.0.0.8");
            }
            assertThat(dns.queriesFor("merged.test")).as("50 concurrent lookups, queries sent (A and maybe AAAA)")
                    .isLessThanOrEqualTo(2 * afterFirst);
            assertThat(resolver.pending()).isZero();
        }
    }

    @Test
    void nxdomainAndServfailAreUnknownHostsAndIpLiteralsNeedNoServer() throws Exception {
        try (TinyDnsServer dns = new TinyDnsServer(60);
             NettyHostResolver resolver = new NettyHostResolver(servers(dns.address()), 100)) {
            assertThatThrownBy(() -> resolver.resolve("missing.test").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnknownHostException.class);
            assertThatThrownBy(() -> resolver.resolve("servfail.test").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnknownHostException.class);
            assertThat(resolver.resolve("10.1.2.3").get(1, TimeUnit.SECONDS).getHostAddress()).isEqualTo("10.1.2.3");
            assertThat(resolver.resolve("::1").get(1, TimeUnit.SECONDS).isLoopbackAddress()).isTrue();
        }
    }

    @Test
    void etcHostsIsReadBeforeAnyServer() throws Exception {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             NettyHostResolver resolver = new NettyHostResolver(servers("127.0.0.1:" + silent.getLocalPort()), 100)) {
            assertThat(resolver.resolve("localhost").get(5, TimeUnit.SECONDS).isLoopbackAddress()).isTrue();
        }
    }

    @Test
    void aServerThatNeverAnswersIsADnsFailureAfterTheQueryTimeout() throws Exception {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1)
                     .withResolver(servers("127.0.0.1:" + silent.getLocalPort()), 100), null)) {
            ProbeReport report = engine.probe(Targets.target(Protocol.TCP, "silent.test", 80, 5_000))
                    .get(30, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.DNS_FAILURE);
            assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(5_000));
        }
    }

    @Test
    void theProbesDeadlineCancelsTheLookupAndAFullResolverIsInconclusive() throws Exception {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             NettyHostResolver resolver = new NettyHostResolver(new DnsConfig(
                     List.of("127.0.0.1:" + silent.getLocalPort()), 10_000, 300, 0), 1);
             NettyProbeEngine engine = ProbeFixtures.engine(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), resolver)) {
            CompletableFuture<ProbeReport> first = engine.probe(Targets.target(Protocol.TCP, "slow.test", 80, 800));
            ProbeReport second = engine.probe(Targets.target(Protocol.TCP, "other.test", 80, 800))
                    .get(30, TimeUnit.SECONDS);
            assertThat(second.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(second.detail()).startsWith("queue-full: cannot resolve other.test");

            ProbeReport timedOut = first.get(30, TimeUnit.SECONDS);
            assertThat(timedOut.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(timedOut.detail()).contains("resolving slow.test");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (resolver.pending() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(resolver.pending()).as("the lookup ended with the probe, not after the 10 s query timeout")
                    .isZero();
        }
    }

    @Test
    void aNameOnAWorkingServerIsProbed() throws Exception {
        try (TinyDnsServer dns = new TinyDnsServer(60).add("web.test", "127.0.0.1");
             ScriptedServer server = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(5000));
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1)
                     .withResolver(servers(dns.address()), 100), null)) {
            ProbeReport report = engine.probe(Targets.target(Protocol.TCP, "web.test", server.port(),
                    Targets.GENEROUS_MS)).get(30, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        }
    }
}
