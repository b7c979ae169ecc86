package io.healthmesh.bench.syscalls;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.testkit.TinyDnsServer;
import io.healthmesh.testkit.farm.FarmLayout;
import io.healthmesh.testkit.farm.TargetFarm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a fixed number of probes of the real {@link NettyProbeEngine} (one event loop) against a loopback target of
 * another process, after a warm-up of {@value #WARM_UP_PROBES} probes (the JIT compiles during it, not in the
 * window), between two lines on standard input, so that {@code strace} attached in between counts the engine's
 * syscalls for exactly those probes. {@code bench/scripts/syscalls.sh} and {@code engine-cpu.sh} drive it.
 *
 * <pre>
 * syscalls serve                                            one TCP and one HTTP target of the loopback farm,
 *                                                           grpc-java's health service and a DNS server on UDP;
 *                                                           prints TARGETS tcp-endpoint http-endpoint
 *                                                           grpc-endpoint dns-endpoint
 * syscalls probe tcp|http|grpc|dns ENDPOINT N CONCURRENCY [TRANSPORT]
 *                                                           warm up, print READY, on "go" run N probes,
 *                                                           print DONE, on a line exit
 * </pre>
 */
@Command(name = "syscalls", mixinStandardHelpOptions = true, subcommands = {SyscallDriver.Serve.class,
        SyscallDriver.Probe.class}, description = "The probe engine alone against loopback targets of another "
        + "process, for strace and /proc counts per probe.")
public final class SyscallDriver {

    private static final int WARM_UP_PROBES = 30_000;
    private static final long WAIT_SECONDS = 120;
    /** The one A record the DNS target of {@code serve} holds; the DNS probe expects exactly this answer. */
    private static final String DNS_ADDRESS = "192.0.2.1";

    /** {@code serve}: the targets, in their own process so that they do not count. */
    @Command(name = "serve", mixinStandardHelpOptions = true, description = "One TCP and one HTTP target of the "
            + "loopback farm (one event-loop thread), grpc-java's health service (SERVING) and a DNS server on UDP "
            + "(one A record); prints TARGETS <tcp endpoint> <http endpoint> <grpc endpoint> <dns endpoint/name>, "
            + "runs until killed.")
    static final class Serve implements Callable<Integer> {

        @Override
        public Integer call() throws Exception {
            Server grpc = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    InsecureServerCredentials.create()).addService(new HealthStatusManager().getHealthService())
                    .build().start();
            try (TargetFarm farm = TargetFarm.start(new FarmLayout(1, 1, 1, 0, "127.0.0.1"), 1);
                 TinyDnsServer dns = new TinyDnsServer(60).add("bench.test", DNS_ADDRESS)) {
                System.out.println("TARGETS " + farm.targets(Protocol.TCP).get(0).endpoint() + " "
                        + farm.targets(Protocol.HTTP).get(0).endpoint() + " 127.0.0.1:" + grpc.getPort() + " "
                        + dns.address() + "/bench.test");
                System.out.flush();
                new CountDownLatch(1).await();
            } finally {
                grpc.shutdownNow();
            }
            return 0;
        }
    }

    /** {@code probe}: the engine's warm-up, then the counted probes. */
    @Command(name = "probe", mixinStandardHelpOptions = true, description = "Warm up, print READY, on \"go\" run N "
            + "probes, print DONE, exit on the next line.")
    static final class Probe implements Callable<Integer> {

        @Parameters(index = "0", description = "tcp, http, grpc or dns.")
        String protocol;
        @Parameters(index = "1", description = "ADDRESS:PORT[/PATH or /NAME], as serve prints it.")
        String endpoint;
        @Parameters(index = "2", description = "Probes counted.")
        int n;
        @Parameters(index = "3", description = "Probes started together.")
        int concurrency;
        @Parameters(arity = "0..1", index = "4", defaultValue = "auto", description = "nio, epoll, io_uring or auto.")
        String transport;

        @Override
        public Integer call() throws Exception {
            TargetSpec target = target(Protocol.valueOf(protocol.toUpperCase(Locale.ROOT)), endpoint);
            ProbeEngineConfig config = EngineConfigs.of(transport);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            try (NettyProbeEngine engine = NettyProbeEngine.create(config, null)) {
                run(engine, target, WARM_UP_PROBES, concurrency);
                System.out.println("TRANSPORT " + engine.transport().describe());
                System.out.println("READY " + ProcessHandle.current().pid());
                System.out.flush();
                if (!"go".equals(in.readLine())) {
                    throw new IllegalStateException("expected: go");
                }
                long start = System.nanoTime();
                Map<Outcome, Integer> outcomes = run(engine, target, n, concurrency);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.println("DONE " + millis + " " + outcomes);
                System.out.flush();
                in.readLine();
                if (outcomes.getOrDefault(Outcome.SUCCESS, 0) != n) {
                    System.err.println("not every probe succeeded: " + outcomes);
                    return 1;
                }
            }
            return 0;
        }
    }

    private SyscallDriver() {
    }

    /**
     * The probed target of {@code ADDRESS:PORT[/PATH]}; HTTP with the default settings but for the path, DNS asking
     * for the A record of the name after the slash and expecting exactly the one address {@code serve} holds.
     */
    static TargetSpec target(Protocol protocol, String endpoint) {
        int slash = endpoint.indexOf('/');
        String hostPort = slash < 0 ? endpoint : endpoint.substring(0, slash);
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("endpoint: " + endpoint + " (expected: ADDRESS:PORT[/PATH])");
        }
        TargetSpec spec = TargetSpec.of("syscalls-" + protocol.name().toLowerCase(Locale.ROOT),
                "syscalls", hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)), protocol)
                .withTiming(5_000, 2_000);
        if (protocol == Protocol.HTTP && slash >= 0) {
            HttpSpec d = HttpSpec.DEFAULTS;
            spec = spec.withHttp(new HttpSpec(d.method(), endpoint.substring(slash), d.host(), d.expectedStatuses(),
                    d.followRedirects(), d.headers(), d.bodyContains(), d.tlsVerify()));
        }
        if (protocol == Protocol.DNS) {
            if (slash < 0) {
                throw new IllegalArgumentException("endpoint: " + endpoint + " (expected for dns: ADDRESS:PORT/NAME)");
            }
            spec = spec.withDns(new DnsSpec(endpoint.substring(slash + 1), DnsRecordType.A, DnsSpec.DEFAULT_RCODE,
                    List.of(DNS_ADDRESS), List.of()));
        }
        return spec;
    }

    /**
     * Probes in bursts of {@code concurrency}, each started when the previous one has ended, as the prober's timer
     * wheel starts every probe due in one tick together: one hand-over to the event loop per burst, and one wake-up
     * of this thread per burst (a latch: only the last probe of a burst wakes it).
     */
    private static Map<Outcome, Integer> run(NettyProbeEngine engine, TargetSpec target, int n, int concurrency)
            throws InterruptedException {
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        for (int started = 0; started < n; ) {
            int burst = Math.min(concurrency, n - started);
            CountDownLatch ended = new CountDownLatch(burst);
            for (int i = 0; i < burst; i++) {
                CompletableFuture<ProbeReport> report = engine.probe(target);
                report.whenComplete((r, e) -> {
                    synchronized (outcomes) {
                        outcomes.merge(r == null ? Outcome.INCONCLUSIVE : r.outcome(), 1, Integer::sum);
                    }
                    ended.countDown();
                });
            }
            started += burst;
            if (!ended.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("probes still running after " + WAIT_SECONDS + " s");
            }
        }
        synchronized (outcomes) {
            return new EnumMap<>(outcomes);
        }
    }
}
