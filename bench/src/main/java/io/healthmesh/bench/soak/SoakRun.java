package io.healthmesh.bench.soak;

import io.healthmesh.bench.run.GroupLag;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * One soak run: the targets on the farm, a prober and an aggregator as {@code healthmesh} processes of their own,
 * the flapping schedule, the restarts on their timer, and a sample every {@code sampleEvery} until the end. Returns the
 * samples; judging them is {@link GrowthVerdict}'s.
 */
public final class SoakRun {

    private static final Logger LOG = LoggerFactory.getLogger(SoakRun.class);
    /** How long a role outlives the planned end when the soak's JVM dies: its {@code --duration} margin. */
    private static final Duration ROLE_MARGIN = Duration.ofMinutes(2);
    /** How long the roles may take to reach a steady start, unless told otherwise. */
    public static final Duration READY_TIMEOUT = Duration.ofMinutes(10);

    /**
     * The Kafka a soak runs on.
     *
     * @param replication the replication factor of the soak's topics (the brokers in the cluster, at most 3)
     */
    public record Cluster(String bootstrapServers, String registryUrl, Admin admin, short replication) {
    }

    /**
     * What a run leaves.
     *
     * @param plan the plan as run: its duration shortened when a time limit left less than asked for
     * @param samples the series
     * @param problems what went wrong outside the series: steady targets not HEALTHY at the end, a role that exited
     *                 by itself, the first false events described
     */
    public record Outcome(SoakPlan plan, List<SoakSample> samples, List<String> problems) {
    }

    /**
     * What a time limit keeps back after the clock's end: the last sample (two {@code jcmd}s), stopping both roles and
     * the timer, and judging.
     */
    static final Duration STOP_MARGIN = Duration.ofSeconds(90);

    private SoakPlan plan;
    private final Cluster cluster;
    private final Duration budget;
    private final Duration readyTimeout;
    private final List<String> launcher;
    private final Path workDir;
    private final Topics topics;
    private final String runId;
    private final Map<SoakRole, RoleProcess> roles = new EnumMap<>(SoakRole.class);
    private final Map<SoakRole, Integer> starts = new EnumMap<>(SoakRole.class);
    private final Map<SoakRole, ProcessFacts> readers = new EnumMap<>(Map.of(SoakRole.PROBER, new ProcessFacts(),
            SoakRole.AGGREGATOR, new ProcessFacts()));
    private final List<SoakSample> samples = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<SoakRole> restarting = EnumSet.noneOf(SoakRole.class);
    private String restartsSinceSample = "";
    private long startNanos;

    /**
     * @param launcher the JVM command up to the {@code healthmesh} arguments ({@code java ... -jar healthmesh-cli.jar})
     * @param workDir where settings, logs and the aggregator's state go
     */
    public SoakRun(SoakPlan plan, Cluster cluster, List<String> launcher, Path workDir) {
        this(plan, cluster, launcher, workDir, null, READY_TIMEOUT);
    }

    /**
     * @param budget the longest {@link #run()} may take, or null for no limit: the wait for a steady start is cut to
     *               leave room for {@link SoakPlan#shortestUseful()}, and the clock is shortened to end
     *               {@link #STOP_MARGIN} before the budget does
     * @param readyTimeout how long the roles may take to reach a steady start before the run fails
     */
    public SoakRun(SoakPlan plan, Cluster cluster, List<String> launcher, Path workDir, Duration budget,
                   Duration readyTimeout) {
        this.plan = requireNonNull(plan, "plan");
        this.budget = budget;
        this.readyTimeout = requireNonNull(readyTimeout, "readyTimeout");
        this.cluster = requireNonNull(cluster, "cluster");
        this.launcher = List.copyOf(launcher);
        this.workDir = requireNonNull(workDir, "workDir");
        this.runId = "soak" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        this.topics = new Topics(runId + ".");
    }

    /** Runs the soak to its end and returns what it saw. */
    public Outcome run() throws IOException, InterruptedException {
        long begun = System.nanoTime();
        Files.createDirectories(workDir);
        TopicSetup.ensure(cluster.admin(), topics, Topics.DEFAULT_PARTITIONS,
                new TopicReplication(cluster.replication(), cluster.replication() == 1));
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "soak-timer");
            t.setDaemon(true);
            return t;
        });
        try (SoakTargets targets = SoakTargets.open(plan)) {
            targets.publish(cluster.bootstrapServers(), cluster.registryUrl(), topics.targets());
            LOG.info("{} definitions published to {} ({} flapping)", plan.targets(), topics.targets(), plan.flapping());
            try (StateWatch watch = new StateWatch(cluster.bootstrapServers(), cluster.registryUrl(),
                    topics.healthState(), targets.flappingIds())) {
                startNanos = System.nanoTime();
                for (SoakRole role : SoakRole.values()) {
                    start(role);
                }
                String exited = awaitSteady(watch, targets, readyDeadline(begun));
                if (exited != null) {
                    stopAll();
                    synchronized (this) {
                        problems.add(exited);
                        return new Outcome(plan, List.copyOf(samples), List.copyOf(problems));
                    }
                }
                fitClock(begun);
                startNanos = System.nanoTime();
                targets.startFlapping(plan, plan.warmup(), plan.duration());
                timer.scheduleAtFixedRate(() -> sample(watch), 0, plan.sampleEvery().toMillis(), TimeUnit.MILLISECONDS);
                for (SoakPlan.Restart restart : plan.restarts()) {
                    timer.schedule(() -> restart(restart), restart.at().toMillis(), TimeUnit.MILLISECONDS);
                }
                TimeUnit.NANOSECONDS.sleep(startNanos + plan.duration().toNanos() - System.nanoTime());
                timer.shutdownNow();
                timer.awaitTermination(60, TimeUnit.SECONDS);
                sample(watch);
                stopAll();
                long healthy = watch.healthy(targets.steadyIds());
                synchronized (this) {
                    if (healthy < plan.steadyTargets()) {
                        problems.add((plan.steadyTargets() - healthy) + " of " + plan.steadyTargets()
                                + " steady targets were not HEALTHY at the end");
                    }
                    watch.describedFalseEvents().forEach(e -> problems.add("false event: " + e));
                    return new Outcome(plan, List.copyOf(samples), List.copyOf(problems));
                }
            }
        } finally {
            timer.shutdownNow();
            stopAll();
        }
    }

    /** When the wait for a steady start must end: after the ready timeout, or sooner to fit the budget. */
    private long readyDeadline(long begun) {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        if (budget != null) {
            deadline = Math.min(deadline, begun + budget.minus(STOP_MARGIN).minus(plan.shortestUseful()).toNanos());
        }
        return deadline;
    }

    /**
     * Waits until every steady target has been decided HEALTHY and both groups' lag is within the verdict's bound, so
     * that the clock, the flapping and the samples start on a system that has caught up with its start (at a load
     * average of 80 the aggregator decided every target while still 34,000 records behind). At {@code deadline}, a
     * run whose targets are all decided starts on its backlog (the verdict judges how fast it drains); one whose
     * targets are not fails.
     *
     * @return null once steady, or what went wrong when a role exited by itself before
     */
    private String awaitSteady(StateWatch watch, SoakTargets targets, long deadline) throws InterruptedException {
        Set<String> steady = targets.steadyIds();
        long proberLag = -1;
        long aggregatorLag = -1;
        while (true) {
            String exited = exitedRole();
            if (exited != null) {
                return exited + " before a steady start";
            }
            boolean decided = watch.healthy(steady) == steady.size();
            boolean late = System.nanoTime() > deadline;
            if (decided || late) {
                proberLag = lag(proberGroup(), List.of(topics.targets()));
                aggregatorLag = lag(aggregatorGroup(), List.of(topics.targets(), topics.probeResults()));
                if (decided && caughtUp(proberLag) && caughtUp(aggregatorLag)) {
                    break;
                }
                if (decided && late && proberLag >= 0 && aggregatorLag >= 0) {
                    // decided but still behind: the clock starts on the backlog, which the verdict then judges as
                    // a rise of the lag that must drain within its allowance
                    LOG.warn("every steady target HEALTHY but the groups still behind (lag {} and {}) when the wait "
                            + "for a steady start ended; the clock starts on the backlog", proberLag, aggregatorLag);
                    return null;
                }
            }
            if (late) {
                throw new IllegalStateException(String.format(Locale.ROOT, "no steady start %d s after the roles "
                        + "started: %d of %d steady targets HEALTHY, lag of the prober group %d and of the aggregator "
                        + "group %d records (bound %d); see %s and aggregator.log",
                        (System.nanoTime() - startNanos) / 1_000_000_000, watch.healthy(steady), steady.size(),
                        proberLag, aggregatorLag, plan.maxLag(), workDir.resolve("prober.log")));
            }
            TimeUnit.SECONDS.sleep(1);
        }
        LOG.info("every steady target HEALTHY and both groups caught up (lag {} and {}) {} s after the roles started; "
                + "the soak's clock starts", proberLag, aggregatorLag, (System.nanoTime() - startNanos) / 1_000_000_000);
        return null;
    }

    /** The first role whose process has exited, described with where its log is; null while both run. */
    private synchronized String exitedRole() {
        for (Map.Entry<SoakRole, RoleProcess> e : roles.entrySet()) {
            if (!e.getValue().isAlive()) {
                String problem = e.getKey().command() + " (pid " + e.getValue().pid() + ") exited by itself; see "
                        + workDir.resolve(e.getKey().command() + ".log");
                LOG.error(problem);
                return problem;
            }
        }
        return null;
    }

    private boolean caughtUp(long lag) {
        return lag >= 0 && lag <= plan.maxLag();
    }

    /** Shortens the plan's clock to end {@link #STOP_MARGIN} before the budget does. */
    private void fitClock(long begun) {
        if (budget == null) {
            return;
        }
        Duration left = budget.minus(STOP_MARGIN).minus(Duration.ofNanos(System.nanoTime() - begun));
        if (left.compareTo(plan.duration()) < 0) {
            LOG.warn("the time limit leaves {} s of the {} s asked for: the clock is shortened", left.toSeconds(),
                    plan.duration().toSeconds());
            plan = plan.withDuration(left.withNanos(0));
        }
    }

    private synchronized void start(SoakRole role) throws IOException {
        int n = starts.merge(role, 1, Integer::sum);
        Path settings = workDir.resolve(role.command() + ".properties");
        if (n == 1) {
            writeSettings(role, settings);
        }
        // before the clock starts (the first start) the roles may also wait for the targets to be decided
        Duration left = plan.duration().minus(Duration.ofNanos(System.nanoTime() - startNanos)).plus(ROLE_MARGIN)
                .plus(n == 1 ? readyTimeout : Duration.ZERO);
        roles.put(role, RoleProcess.start(role, launcher, settings, workDir.resolve(role.command() + ".log"), left));
    }

    private void writeSettings(SoakRole role, Path file) throws IOException {
        Properties p = new Properties();
        p.put("bootstrap.servers", cluster.bootstrapServers());
        p.put("schema.registry.url", cluster.registryUrl());
        p.put("topic.prefix", topics.prefix());
        p.put("http.host", "127.0.0.1");
        p.put("http.port", "0");
        if (role == SoakRole.PROBER) {
            p.put("region", runId);
            p.put("prober.id", runId + "-prober");
            p.put("allow.list", "127.0.0.0/8"); // the farm listens on loopback, which probers deny by default
            p.put("jitter.fraction", "1.0");
            // stated rather than defaulted: the verdict bounds the prober's transient descriptors by it
            p.put("max.in.flight", Integer.toString(SoakPlan.MAX_IN_FLIGHT));
        } else {
            p.put("application.id", aggregatorGroup());
            p.put("state.dir", workDir.resolve("aggregator-state").toString());
            p.put("replication.factor", Short.toString(cluster.replication()));
            // a soak on one broker is a development setup: one copy allowed there only
            p.put(TopicReplication.SINGLE_COPY_SETTING, Boolean.toString(cluster.replication() == 1));
            // stated rather than defaulted: the verdict allows the aggregator's RSS to fill it
            p.put("rocksdb.memory.mb", Integer.toString(SoakPlan.ROCKSDB_MEMORY_MB));
        }
        try (Writer out = Files.newBufferedWriter(file)) {
            p.store(out, "healthmesh soak: " + role.command());
        }
    }

    private String aggregatorGroup() {
        return runId + "-aggregator";
    }

    private String proberGroup() {
        return "healthmesh-prober-" + runId;
    }

    private void restart(SoakPlan.Restart restart) {
        try {
            RoleProcess old;
            synchronized (this) {
                old = roles.get(restart.role());
                restarting.add(restart.role());
            }
            LOG.info("restart at {} s: {} (pid {})", restart.at().toSeconds(), restart.label(), old.pid());
            old.stop(restart.kill());
            synchronized (this) {
                // the new process and its label together: the sample that first sees the new pid names the restart
                start(restart.role());
                restarting.remove(restart.role());
                restartsSinceSample = (restartsSinceSample + " " + restart.label()).trim();
            }
        } catch (IOException e) {
            synchronized (this) {
                problems.add("restart of " + restart.label() + " failed: " + e.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sample(StateWatch watch) {
        Map<SoakRole, RoleProcess> processes;
        Set<SoakRole> expectedDown;
        String restarts;
        synchronized (this) {
            processes = new EnumMap<>(roles);
            expectedDown = EnumSet.copyOf(restarting);
            restarts = restartsSinceSample;
            restartsSinceSample = "";
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Map<SoakRole, RoleFacts> facts = new EnumMap<>(SoakRole.class);
        for (SoakRole role : SoakRole.values()) {
            RoleProcess process = processes.get(role);
            if (process == null) {
                facts.put(role, RoleFacts.unknown(-1));
                continue;
            }
            if (!process.isAlive() && !expectedDown.contains(role)) {
                noteExit(role, process);
            }
            facts.put(role, readers.get(role).read(process.pid()));
        }
        long proberLag = lag(proberGroup(), List.of(topics.targets()));
        long aggregatorLag = lag(aggregatorGroup(), List.of(topics.targets(), topics.probeResults()));
        SoakSample s = new SoakSample(seconds, facts.get(SoakRole.PROBER), facts.get(SoakRole.AGGREGATOR),
                proberLag, aggregatorLag, watch.events(), watch.falseEvents(), watch.staleEvents(),
                watch.flappingFlips(), loadAverage(), restarts);
        synchronized (this) {
            samples.add(s);
        }
        LOG.info("sample {}", SoakCsv.row(s));
    }

    private synchronized void noteExit(SoakRole role, RoleProcess process) {
        if (roles.get(role) != process || restarting.contains(role)) {
            return; // stopped by a restart since the sample looked
        }
        String problem = role.command() + " (pid " + process.pid() + ") exited by itself; see "
                + workDir.resolve(role.command() + ".log");
        if (!problems.contains(problem)) {
            problems.add(problem);
            LOG.error(problem);
        }
    }

    private long lag(String group, List<String> inputs) {
        try {
            long lag = 0;
            for (String topic : inputs) {
                lag += GroupLag.lag(cluster.admin(), group, topic);
            }
            return lag;
        } catch (Exception e) {
            LOG.warn("lag of {} unreadable: {}", group, e.toString());
            return -1;
        }
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void stopAll() throws InterruptedException {
        List<RoleProcess> running;
        synchronized (this) {
            running = new ArrayList<>(roles.values());
            roles.clear();
        }
        for (RoleProcess p : running) {
            if (p.isAlive()) {
                p.stop(false);
            }
        }
    }
}
