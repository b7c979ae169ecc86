package io.healthmesh.bench.syscalls;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a fixed number of probes of the real {@link NettyProbeEngine} (one event loop) against a loopback server of
 * another process, after a warm-up of {@value #WARM_UP_PROBES} probes (the JIT compiles during it, not in the window), between two lines on standard input, so that {@code strace} attached in between counts the
 * engine's syscalls for exactly those probes. {@code bench/scripts/syscalls.sh} drives it.
 *
 * <pre>
 * serve                                          start the loopback servers, print PORTS tcp http
 * probe tcp|http PORT N CONCURRENCY [TRANSPORT]  warm up, print READY, on "go" run N probes, print DONE, on a line exit
 * </pre>
 */
public final class SyscallDriver {

    private static final int WARM_UP_PROBES = 30_000;
    private static final long WAIT_SECONDS = 120;

    private SyscallDriver() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("serve")) {
            LoopbackServers.run();
            return;
        }
        if (args.length < 5 || !args[0].equals("probe")) {
            System.err.println("usage: serve | probe tcp|http PORT N CONCURRENCY [TRANSPORT]");
            System.exit(2);
        }
        Protocol protocol = Protocol.valueOf(args[1].toUpperCase());
        int port = Integer.parseInt(args[2]);
        int n = Integer.parseInt(args[3]);
        int concurrency = Integer.parseInt(args[4]);
        ProbeEngineConfig config = EngineConfigs.of(args.length > 5 ? args[5] : "auto");
        TargetSpec target = TargetSpec.of("syscalls-" + args[1], "syscalls", "127.0.0.1", port, protocol)
                .withTiming(5_000, 2_000);
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
                System.exit(1);
            }
        }
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
