package io.healthmesh.bench.run;

import io.healthmesh.core.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One prober holding a whole fleet: it starts on a targets topic that already holds every definition (time until its
 * group has read them all: it then owns and schedules every target; time until every target has been probed once),
 * its RSS and its heap after a full collection; then it is stopped and started again, and every target's first probe
 * after the restart is timed. With first probes spread over the whole interval ({@code jitter.fraction} 1), every
 * target should be probed again within one interval after the new prober owns its targets.
 */
public final class ProberScalePhase {

    private static final Logger LOG = LoggerFactory.getLogger(ProberScalePhase.class);

    /**
     * One start of the prober: seconds to every definition read (NaN when not within the round), seconds from the
     * start to the first probe of half, 99 % and all of the targets (NaN where not reached), RSS and live heap at the
     * end of the round, the load average then.
     */
    public record Start(String kind, double assignedSeconds, double halfProbedSeconds, double p99ProbedSeconds,
                        double allProbedSeconds, int probed, long rssBytes, long heapBytes, String load,
                        String histogram) {
    }

    /** Starts a prober (a new JVM each time). */
    @FunctionalInterface
    public interface Starter {
        ChildJvm start() throws IOException;
    }

    private ProberScalePhase() {
    }

    /** Runs the first start and the restart on definitions already in the targets topic. */
    /**
     * @param patience how long a round may take before it is reported unfinished (the assignment of a whole fleet
     *     on a loaded machine takes minutes before the interval of first probes starts)
     */
    public static List<Start> run(BenchStack stack, List<TargetSpec> specs, String proberGroup, String prefix,
                                  Duration patience, Starter starter) throws Exception {
        List<Start> starts = new ArrayList<>();
        long t0 = System.currentTimeMillis();
        try (FirstProbes probes = new FirstProbes(stack, prefix, specs.size(), t0)) {
            ChildJvm prober = starter.start();
            try {
                starts.add(round("first start on " + specs.size() + " definitions", stack, proberGroup, probes,
                        prober, t0, patience, specs.size()));
            } finally {
                prober.close();
            }
            long restart = System.currentTimeMillis();
            probes.since(restart);
            try (ChildJvm again = starter.start()) {
                starts.add(round("restart (SIGTERM, then a new JVM)", stack, proberGroup, probes, again, restart,
                        patience, specs.size()));
            }
        }
        return starts;
    }

    private static Start round(String kind, BenchStack stack, String group, FirstProbes probes, ChildJvm prober,
                               long startMs, Duration patience, int targets) throws Exception {
        String topic = stack.topics().targets();
        long deadline = startMs + patience.toMillis();
        double assigned = Double.NaN;
        long lastReport = startMs;
        boolean restart = GroupLag.lag(stack.admin(), group, topic) == 0;
        while (System.currentTimeMillis() < deadline && probes.probed() < targets) {
            if (!prober.isAlive()) {
                throw new IllegalStateException("the prober stopped during \"" + kind + "\"");
            }
            long now = System.currentTimeMillis();
            // a first start commits what it has read as it goes; a restart has nothing new to commit, so its
            // assignment shows as the first probe instead
            long unread = restart ? -1 : GroupLag.lag(stack.admin(), group, topic);
            if (Double.isNaN(assigned) && unread == 0) {
                assigned = (now - startMs) / 1e3;
                LOG.info("prober scale: {}: every definition read after {} s", kind, assigned);
            }
            if (now - lastReport >= 10_000) {
                LOG.info("prober scale: {}: after {} s: {} definitions not read yet, {} of {} targets probed, RSS {}"
                                + " MiB, load {}", kind, (now - startMs) / 1000, unread, probes.probed(), targets,
                        RestorePhase.rss(prober.pid()) >> 20, load());
                lastReport = now;
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
        long rss = RestorePhase.rss(prober.pid());
        String histogram = prober.classHistogram(15);
        long heap = prober.heapUsedAfterGc();
        Start s = new Start(kind, assigned, seconds(probes.millisToProbe(0.5)), seconds(probes.millisToProbe(0.99)),
                seconds(probes.millisToProbe(1.0)), probes.probed(), rss, heap, load(), histogram);
        LOG.info("prober scale: {}", s);
        return s;
    }

    private static double seconds(long millis) {
        return millis < 0 ? Double.NaN : millis / 1e3;
    }

    /** The 1, 5 and 15 minute load averages of the machine. */
    public static String load() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
