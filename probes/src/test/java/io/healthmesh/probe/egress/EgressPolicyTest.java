package io.healthmesh.probe.egress;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.resolve.HostResolver;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The egress policy in the runner, with a fake resolver and probers that only count: see also {@link EgressTableTest}. */
class EgressPolicyTest {

    private static DefaultEventLoop loop;

    @BeforeAll
    static void startLoop() {
        loop = new DefaultEventLoop();
    }

    @AfterAll
    static void stopLoop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Resolves {@code metadata.test} to the metadata address and fails every other name. */
    private static final HostResolver FAKE_DNS = new HostResolver() {
        @Override
        public CompletableFuture<InetAddress> resolve(String host) {
            try {
                return switch (host) {
                    case "metadata.test" -> CompletableFuture.completedFuture(InetAddress.getByName("169.254.169.254"));
                    case "loopback.test" -> CompletableFuture.completedFuture(InetAddress.getByName("127.0.0.1"));
                    default -> host.chars().allMatch(c -> c == '.' || c == ':' || Character.isLetterOrDigit(c))
                            && !host.endsWith(".test") ? CompletableFuture.completedFuture(InetAddress.getByName(host))
                            : CompletableFuture.failedFuture(new UnknownHostException(host + ": no such name"));
                };
            } catch (UnknownHostException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public void close() {
        }
    };

    private record Counted(BiFunction<TargetSpec, EventLoop, CompletableFuture<ProbeReport>> runner,
                           AtomicInteger probes) {
    }

    /** A runner whose every prober only counts that it was asked to send something. */
    private static Counted countingRunner() {
        return countingRunner(EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of()));
    }

    private static Counted countingRunner(EgressPolicy policy) {
        AtomicInteger probes = new AtomicInteger();
        Prober counting = (probe, address) -> {
            probes.incrementAndGet();
            probe.succeed("would have sent to " + address.getHostAddress());
        };
        Map<Protocol, Prober> all = new java.util.EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            all.put(p, counting);
        }
        return new Counted(ProbeFixtures.runner(all, new AddressGate(FAKE_DNS, policy)), probes);
    }

    private static ProbeReport run(BiFunction<TargetSpec, EventLoop, CompletableFuture<ProbeReport>> runner,
                                   Protocol protocol, String address) throws Exception {
        TargetSpec target = Targets.target(protocol, address, 80, 2000);
        return runner.apply(target, loop).get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void metadataAddressIsBlockedWithoutAnyPacketForEveryProtocol(Protocol protocol) throws Exception {
        Counted counted = countingRunner();
        ProbeReport report = run(counted.runner(), protocol, "169.254.169.254");
        assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        assertThat(report.detail()).isEqualTo("169.254.169.254 is in denied range 169.254.0.0/16");
        assertThat(counted.probes()).hasValue(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"metadata.test", "fd00:ec2::254", "::ffff:169.254.169.254", "169.254.0.1"})
    void deniedAfterResolutionWhateverTheSpelling(String address) throws Exception {
        Counted counted = countingRunner();
        assertThat(run(counted.runner(), Protocol.HTTP, address).outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        assertThat(counted.probes()).hasValue(0);
    }

    @Test
    void loopbackIsDeniedByDefault() throws Exception {
        Counted counted = countingRunner();
        ProbeReport report = run(counted.runner(), Protocol.TCP, "loopback.test");
        assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        assertThat(report.detail()).isEqualTo("127.0.0.1 is in denied range 127.0.0.0/8");
        assertThat(counted.probes()).hasValue(0);
    }

    @Test
    void allowListOpensLoopback() throws Exception {
        Counted counted = countingRunner(EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, ProbeEngineConfig.LOOPBACK));
        ProbeReport report = run(counted.runner(), Protocol.TCP, "loopback.test");
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("would have sent to 127.0.0.1");
        assertThat(run(counted.runner(), Protocol.TCP, "::ffff:127.0.0.1").outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(counted.probes()).hasValue(2);
        // the allow list opens loopback, not the metadata service
        assertThat(run(counted.runner(), Protocol.TCP, "169.254.169.254").outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
    }

    @Test
    void theMostSpecificBlockDecides() throws Exception {
        EgressPolicy policy = EgressPolicy.of(List.of("127.0.0.0/8", "10.0.0.0/8", "127.0.0.2/32"),
                List.of("127.0.0.0/8", "10.1.0.0/16"));
        assertThat(policy.check(InetAddress.getByName("127.0.0.1"), 80)).isEmpty(); // allow as specific as deny
        assertThat(policy.check(InetAddress.getByName("127.0.0.2"), 80)).contains("127.0.0.2 is in denied range 127.0.0.2/32");
        assertThat(policy.check(InetAddress.getByName("10.1.2.3"), 80)).isEmpty();
        assertThat(policy.check(InetAddress.getByName("10.2.2.3"), 80)).contains("10.2.2.3 is in denied range 10.0.0.0/8");
    }

    @Test
    void privateRangesStayAllowedByDefault() throws Exception {
        EgressPolicy policy = EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of());
        for (String address : List.of("10.0.0.1", "172.16.5.4", "192.168.1.1", "fd12:3456::1", "100.64.0.1", "8.8.8.8",
                "2001:db8::1", "64:ff9b::a00:1", "2002:c0a8:101::1")) {
            assertThat(policy.check(InetAddress.getByName(address), 443)).as(address).isEmpty();
        }
    }

    @Test
    void moreMetadataAndDeprecatedAddressesAreDeniedByDefault() throws Exception {
        EgressPolicy policy = EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of());
        for (String address : List.of("fd20:ce::254", "192.0.0.192", "::ffff:192.0.0.192", "fec0::1",
                "feff:ffff::1")) {
            assertThat(policy.check(InetAddress.getByName(address), 80)).as(address).isPresent();
        }
        assertThat(policy.check(InetAddress.getByName("fd20:ce::253"), 80)).isEmpty();
        assertThat(policy.check(InetAddress.getByName("192.0.0.193"), 80)).isEmpty();
    }

    @Test
    void localUseNat64IsDeniedUntilOpenedThenItsEmbeddedAddressIsJudged() throws Exception {
        // 169.254.169.254 behind a /48 and a /96 prefix inside 64:ff9b:1::/48 (RFC 6052 section 2.2)
        EgressPolicy closed = EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of());
        for (String address : List.of("64:ff9b:1:a9fe:a9:fe00::", "64:ff9b:1::a9fe:a9fe", "64:ff9b:1::a00:1")) {
            assertThat(closed.check(InetAddress.getByName(address), 80)).as(address)
                    .hasValueSatisfying(reason -> assertThat(reason).endsWith("is in denied range 64:ff9b:1::/48"));
        }
        EgressPolicy opened = EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of("64:ff9b:1::/48"));
        assertThat(opened.check(InetAddress.getByName("64:ff9b:1::a00:1"), 80)).isEmpty();
        assertThat(opened.check(InetAddress.getByName("64:ff9b:1::a9fe:a9fe"), 80))
                .contains("64:ff9b:1:0:0:0:a9fe:a9fe (embedding 169.254.169.254) is in denied range 169.254.0.0/16");
    }

    @Test
    void aBrokersHostIsDeniedOnEveryPortUnlessTheAllowListOpenedItsDenyBlock() throws Exception {
        DiscoveredEndpoints discovered = new DiscoveredEndpoints();
        EgressPolicy policy = new EgressPolicy(ProbeEngineConfig.DEFAULT_DENY_LIST, ProbeEngineConfig.LOOPBACK,
                List.of(), discovered);
        InetAddress broker = InetAddress.getByName("10.0.0.7");
        InetAddress loopbackBroker = InetAddress.getByName("127.0.0.1");
        discovered.replace(new DiscoveredEndpoints.Denied(Map.of(broker, Set.of(9092), loopbackBroker, Set.of(9092)),
                Map.of(), Map.of(), Set.of(), Set.of(broker, loopbackBroker)));
        assertThat(policy.check(broker, 19092)).contains("10.0.0.7 is the host of a broker or controller of this cluster");
        assertThat(policy.check(broker, -1)).isPresent(); // ICMP too
        assertThat(policy.check(InetAddress.getByName("::ffff:10.0.0.7"), 9093)).isPresent();
        assertThat(policy.check(InetAddress.getByName("10.0.0.8"), 19092)).isEmpty();
        // the allow list opened loopback (the demo): its backends next to the broker stay reachable, the broker does not
        assertThat(policy.check(loopbackBroker, 8080)).isEmpty();
        assertThat(policy.check(loopbackBroker, 9092))
                .contains("127.0.0.1 port 9092 is an endpoint of this cluster (from its metadata)");
        // an allow list that opens no deny block opens no broker host either
        EgressPolicy allowAll = new EgressPolicy(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of("0.0.0.0/0"), List.of(),
                discovered);
        assertThat(allowAll.check(broker, 19092)).isPresent();
    }

    @Test
    void announcedEndpointsOnlyAddDenialsByAddressAndByNameAsWritten() throws Exception {
        DiscoveredEndpoints discovered = new DiscoveredEndpoints();
        EgressPolicy policy = new EgressPolicy(ProbeEngineConfig.DEFAULT_DENY_LIST, ProbeEngineConfig.LOOPBACK,
                List.of(), discovered);
        InetAddress ops = InetAddress.getByName("127.0.0.1");
        assertThat(policy.check(ops, 9100)).isEmpty();
        discovered.replace(new DiscoveredEndpoints.Denied(Map.of(), Map.of(ops, Set.of(9100)),
                Map.of("Aggregator-1.example.", Set.of(8080)), Set.of(), Set.of()));
        assertThat(policy.check(ops, 9100))
                .contains("127.0.0.1 port 9100 is an endpoint of this cluster (announced by a worker)");
        assertThat(policy.check(ops, 9101)).isEmpty();
        assertThat(policy.checkHost("aggregator-1.example", 8080))
                .contains("aggregator-1.example port 8080 is an endpoint of this cluster (announced by a worker)");
        assertThat(policy.checkHost("aggregator-1.example", 8081)).isEmpty();
        // what the deny list refuses stays refused: an announcement never opens anything
        assertThat(policy.check(InetAddress.getByName("169.254.169.254"), 80)).isPresent();
    }

    @Test
    void discoveredEndpointsAreDeniedWhateverTheAllowListAndReplacedWhole() throws Exception {
        DiscoveredEndpoints discovered = new DiscoveredEndpoints();
        EgressPolicy policy = new EgressPolicy(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of("0.0.0.0/0", "::/0"),
                List.of(), discovered);
        InetAddress broker = InetAddress.getByName("10.0.0.7");
        InetAddress host = InetAddress.getByName("10.0.0.9");
        assertThat(policy.check(broker, 9092)).isEmpty();
        discovered.replace(Map.of(broker, Set.of(9092, 9093)), Set.of(host));
        assertThat(policy.check(broker, 9093))
                .contains("10.0.0.7 port 9093 is an endpoint of this cluster (from its metadata)");
        assertThat(policy.check(InetAddress.getByName("::ffff:10.0.0.7"), 9092)).isPresent();
        assertThat(policy.check(broker, 443)).isEmpty();
        assertThat(policy.check(host, 1)).contains("10.0.0.9 is an address of this prober's host");
        assertThat(policy.check(host, -1)).isPresent(); // ICMP too
        discovered.replace(Map.of(), Set.of());
        assertThat(policy.check(broker, 9092)).isEmpty();
        assertThat(policy.check(host, 1)).isEmpty();
        assertThat(DiscoveredEndpoints.hostAddresses()).noneMatch(InetAddress::isLoopbackAddress);
    }

    @Test
    void clusterEndpointsAreDeniedWhateverTheAllowList() throws Exception {
        EgressPolicy policy = new EgressPolicy(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of("0.0.0.0/0", "::/0", "127.0.0.0/8"),
                EgressPolicy.resolve(List.of("10.0.0.5:9092", "[fd00::5]:8081", "0.0.0.0:8080")));
        assertThat(policy.check(InetAddress.getByName("10.0.0.5"), 9092))
                .contains("10.0.0.5 port 9092 is an endpoint of this cluster (10.0.0.5:9092)");
        assertThat(policy.check(InetAddress.getByName("::ffff:10.0.0.5"), 9092)).isPresent();
        assertThat(policy.check(InetAddress.getByName("10.0.0.5"), 9093)).isEmpty();
        assertThat(policy.check(InetAddress.getByName("10.0.0.5"), -1)).isEmpty(); // ICMP has no port
        assertThat(policy.check(InetAddress.getByName("fd00::5"), 8081)).isPresent();
        // a wildcard-bound endpoint: its port on every address of this host, loopback included
        assertThat(policy.check(InetAddress.getByName("127.0.0.1"), 8080))
                .contains("127.0.0.1 port 8080 is an endpoint of this cluster (0.0.0.0:8080)");
        assertThat(policy.check(InetAddress.getByName("127.0.0.1"), 8081)).isEmpty();
        assertThat(policy.check(InetAddress.getByName("10.9.9.9"), 8080)).isEmpty();
    }

    @Test
    void hostSpellingsAreReadBeforeAnyLookup() {
        EgressPolicy policy = EgressPolicy.of(ProbeEngineConfig.DEFAULT_DENY_LIST, List.of());
        assertThat(policy.checkHost("0x7f.1", 80)).contains("0x7f.1 names 127.0.0.1 is in denied range 127.0.0.0/8");
        assertThat(policy.checkHost("2852039166", 80)).contains("2852039166 names 169.254.169.254 is in denied range 169.254.0.0/16");
        assertThat(policy.checkHost("0251.0376.0251.0376", 80)).isPresent();
        assertThat(policy.checkHost("[::1]", 80)).isPresent();
        assertThat(policy.checkHost("fe80::1%eth0", 80)).isPresent();
        assertThat(policy.checkHost("127.0.0.1.", 80)).isPresent();
        assertThat(policy.checkHost("example.com", 80)).isEmpty();
        assertThat(policy.checkHost("10.1.2.3", 80)).isEmpty();
        assertThat(policy.checkHost("1.2.3.4.5", 80)).isEmpty(); // not a number spelling: a name, resolved then checked
    }

    @Test
    void unresolvableNameIsDnsFailure() throws Exception {
        Counted counted = countingRunner();
        ProbeReport report = run(counted.runner(), Protocol.HTTP, "nowhere.test");
        assertThat(report.outcome()).isEqualTo(Outcome.DNS_FAILURE);
        assertThat(report.detail()).contains("nowhere.test");
        assertThat(counted.probes()).hasValue(0);
    }

    @Test
    void realEngineBlocksTheMetadataServiceAtOnce() throws Exception {
        try (NettyProbeEngine engine = ProbeFixtures.engine(ProbeEngineConfig.defaults().withEventLoopThreads(1), FAKE_DNS)) {
            for (Protocol protocol : List.of(Protocol.TCP, Protocol.HTTP, Protocol.HTTPS, Protocol.UDP, Protocol.ICMP)) {
                ProbeReport report = engine.probe(Targets.target(protocol, "metadata.test", 80, Targets.GENEROUS_MS)).get(30, TimeUnit.SECONDS);
                assertThat(report.outcome()).as(protocol.name()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
                assertThat(report.connectMicros()).isNull();
                assertThat(report.latencyMicros()).isLessThan(TimeUnit.MILLISECONDS.toMicros(Targets.GENEROUS_MS / 2));
            }
        }
    }

    @Test
    void configuredDenyListReplacesTheDefault() throws Exception {
        EgressPolicy custom = EgressPolicy.of(List.of("127.0.0.0/8"), List.of());
        assertThat(custom.check(InetAddress.getByName("127.0.0.1"), 80)).isPresent();
        assertThat(custom.check(InetAddress.getByName("169.254.169.254"), 80)).isEmpty();
        assertThat(EgressPolicy.of(List.of(), List.of()).check(InetAddress.getByName("169.254.169.254"), 80)).isEmpty();
    }

    @Test
    void cidrBoundariesAreExact() throws Exception {
        Cidr block = Cidr.parse("10.1.2.0/23");
        assertThat(block.contains(InetAddress.getByName("10.1.2.0"))).isTrue();
        assertThat(block.contains(InetAddress.getByName("10.1.3.255"))).isTrue();
        assertThat(block.contains(InetAddress.getByName("10.1.4.0"))).isFalse();
        assertThat(block.contains(InetAddress.getByName("10.1.1.255"))).isFalse();
        assertThat(Cidr.parse("0.0.0.0/0").contains(InetAddress.getByName("8.8.8.8"))).isTrue();
        assertThat(Cidr.parse("0.0.0.0/0").contains(InetAddress.getByName("::1"))).isFalse();
        assertThat(Cidr.parse("fd00:ec2::/32").contains(InetAddress.getByName("fd00:ec3::1"))).isFalse();
    }
}
