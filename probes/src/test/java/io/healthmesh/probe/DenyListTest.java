package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.netty.channel.DefaultEventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListTest {

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

    private record Counted(ProbeRunner runner, AtomicInteger probes) {
    }

    /** A runner whose every prober only counts that it was asked to send something. */
    private static Counted countingRunner() {
        AtomicInteger probes = new AtomicInteger();
        Prober counting = (probe, address) -> {
            probes.incrementAndGet();
            probe.succeed("would have sent to " + address.getHostAddress());
        };
        Map<Protocol, Prober> all = new java.util.EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            all.put(p, counting);
        }
        return new Counted(new ProbeRunner(all, new AddressGate(FAKE_DNS,
                new DenyList(ProbeEngineConfig.DEFAULT_DENY_LIST))), probes);
    }

    private static ProbeReport run(ProbeRunner runner, Protocol protocol, String address) throws Exception {
        TargetSpec target = Targets.target(protocol, address, 80, 2000);
        return runner.run(target, loop).get(30, TimeUnit.SECONDS);
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
    void allowedAddressReachesTheProber() throws Exception {
        Counted counted = countingRunner();
        ProbeReport report = run(counted.runner(), Protocol.TCP, "loopback.test");
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("would have sent to 127.0.0.1");
        assertThat(counted.probes()).hasValue(1);
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
        try (NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withEventLoopThreads(1), null, FAKE_DNS)) {
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
        DenyList custom = new DenyList(List.of("127.0.0.0/8"));
        assertThat(custom.match(InetAddress.getByName("127.0.0.1"))).isPresent();
        assertThat(custom.match(InetAddress.getByName("169.254.169.254"))).isEmpty();
        assertThat(new DenyList(List.of()).match(InetAddress.getByName("169.254.169.254"))).isEmpty();
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
