package io.healthmesh.bench.run;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.bench.peers.BlackboxDriver;
import io.healthmesh.bench.peers.BlackboxPeer;
import io.healthmesh.bench.peers.HaproxyPeer;
import io.healthmesh.core.target.Protocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** CPU per check of the peers on the same farm: HAProxy at the same targets and interval, blackbox_exporter at the same rate. */
public final class PeerCpuPhase {

    private static final Logger LOG = LoggerFactory.getLogger(PeerCpuPhase.class);

    /**
     * One peer's figure.
     *
     * @param peer {@code haproxy} or {@code blackbox_exporter}
     * @param askedPerSecond checks per second asked of the peer
     * @param achievedPerSecond checks per second it did ({@code askedPerSecond} for HAProxy, which runs every check
     *     on its own schedule; answered scrapes for blackbox_exporter)
     * @param cores the peer's CPU time per second of the window
     * @param note what else the reader must know (checks not sent, failures)
     * @param voidReason why the figure does not compare, or {@code null}: a HAProxy check that failed within the window
     *     against a farm that is up means the machine, not HAProxy's work, set its pace (a timed-out check costs
     *     less than a completed one), so no ratio is taken from it
     */
    public record Figure(String peer, Protocol protocol, double askedPerSecond, double achievedPerSecond,
                         double cores, String note, String voidReason) {

        public Figure(String peer, Protocol protocol, double askedPerSecond, double achievedPerSecond, double cores,
                      String note) {
            this(peer, protocol, askedPerSecond, achievedPerSecond, cores, note, null);
        }

        public double cpuMicrosPerCheck() {
            return cores * 1e6 / achievedPerSecond;
        }

        public double perCore() {
            return achievedPerSecond / cores;
        }
    }

    private PeerCpuPhase() {
    }

    /**
     * HAProxy checking {@code servers} servers (round robin over the farm's targets) every {@code intervalMs}; reads
     * {@code prober}'s CPU time (nanoseconds) over the same window into the note: the prober should be idle by then
     * (its targets drained), and a prober still compiling or collecting shares the cores with HAProxy and the farm,
     * which makes HAProxy's check read dearer.
     */
    public static Figure haproxy(Path workDir, List<FarmTarget> farm, Protocol protocol, int servers, int intervalMs,
                                 Duration window, LongSupplier prober)
            throws IOException, InterruptedException {
        List<FarmTarget> list = roundRobin(farm, servers);
        try (HaproxyPeer haproxy = HaproxyPeer.start(HaproxyPeer.DEFAULT_BINARY, workDir, list, intervalMs,
                Math.min(intervalMs, 1_000), 3, 3, 1_000)) {
            // HAProxy spreads the first checks over one interval: measure from the second on
            TimeUnit.MILLISECONDS.sleep(intervalMs + 1_000L);
            if (!haproxy.isAlive()) {
                throw new IOException("haproxy exited; see " + workDir.resolve("haproxy.cfg"));
            }
            long before = haproxy.cpuNanos();
            long proberBefore = prober.getAsLong();
            long failedBefore = haproxy.failedChecks();
            long start = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(window.toNanos());
            long cpu = haproxy.cpuNanos() - before;
            long proberCpu = prober.getAsLong() - proberBefore;
            long elapsed = System.nanoTime() - start;
            double rate = servers * 1000.0 / intervalMs;
            long downs = haproxy.changes().stream().filter(c -> !c.up()).count();
            long failed = haproxy.failedChecks();
            Figure f = new Figure("haproxy", protocol, rate, rate, (double) cpu / elapsed,
                    failed + " failed checks since its start; "
                            + (downs == 0 ? "every server stayed UP" : downs + " servers went DOWN")
                            + String.format(Locale.ROOT, "; healthmesh's prober used %.2f cores meanwhile",
                            (double) proberCpu / elapsed),
                    disturbed(failed - failedBefore));
            LOG.info("peer {}", f);
            return f;
        }
    }

    /** {@code servers} servers for HAProxy, round robin over {@code farm}'s targets (a target may be checked many times). */
    public static List<FarmTarget> roundRobin(List<FarmTarget> farm, int servers) {
        List<FarmTarget> list = new ArrayList<>(servers);
        for (int i = 0; i < servers; i++) {
            list.add(farm.get(i % farm.size()));
        }
        return list;
    }

    /** The void reason of a HAProxy window in which {@code failedInWindow} checks failed against a farm that is up. */
    static String disturbed(long failedInWindow) {
        return failedInWindow == 0 ? null : failedInWindow + " checks failed in the window against a farm that was up: "
                + "the machine set HAProxy's pace, so its CPU per check does not compare";
    }

    /** blackbox_exporter scraped at {@code probesPerSecond} over the farm's targets. */
    public static Figure blackbox(Path workDir, List<FarmTarget> farm, Protocol protocol, double probesPerSecond,
                                  Duration window) throws IOException, InterruptedException {
        try (BlackboxPeer exporter = BlackboxPeer.start(BlackboxPeer.DEFAULT_BINARY, workDir, 1_000)) {
            // a short warm-up at the same rate, so connection pools and Go's runtime settle
            BlackboxDriver.drive(exporter, farm, probesPerSecond, Duration.ofSeconds(2), 512);
            BlackboxDriver.Result r = BlackboxDriver.drive(exporter, farm, probesPerSecond, window, 512);
            String note = String.format("%d answered (%d failed), %d scrapes not sent (512 waiting)",
                    r.probes(), r.failed(), r.notSent());
            Figure f = new Figure("blackbox_exporter", protocol, probesPerSecond, r.probesPerSecond(),
                    (double) r.cpuNanos() / r.elapsedNanos(), note);
            LOG.info("peer {}", f);
            return f;
        }
    }
}
