package io.healthmesh.bench;

import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.soak.GrowthVerdict;
import io.healthmesh.bench.soak.SoakBounds;
import io.healthmesh.bench.soak.SoakCsv;
import io.healthmesh.bench.soak.SoakPlan;
import io.healthmesh.bench.soak.SoakReport;
import io.healthmesh.bench.soak.SoakRun;
import io.healthmesh.bench.soak.SoakSample;
import io.healthmesh.bench.soak.SoakSvg;
import io.healthmesh.cli.window.DurationConverter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The soak: a prober and an aggregator as {@code healthmesh} processes of their own against one broker and the
 * loopback farm, restarted on a timer, sampled until the end, then judged for growth (docs/operations/soak.md). Writes
 * {@code soak.csv}, {@code soak.svg} and {@code summary.md} into {@code --out}; exit 0 when the verdict passes, 1 when
 * it fails (the summary says why), 3 when the roles never reached a steady start in time (no verdict).
 * {@code --judge FILE} judges and draws a CSV again without running anything.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "A prober and an aggregator process soaked under restarts; fails on growth or a false event.")
public final class SoakBench implements Callable<Integer> {

    /** The exit status of a run that never reached a steady start, so judged nothing. */
    static final int NO_VERDICT = 3;

    @Spec
    CommandSpec spec;

    @Option(names = "--targets", defaultValue = "10000", description = "Definitions, the flapping ones included.")
    int targets;
    @Option(names = "--flapping", defaultValue = "5", description = "Definitions whose farm target flaps.")
    int flapping;
    @Option(names = "--interval", defaultValue = "10s", converter = DurationConverter.class,
            description = "Every definition's probe interval (default: ${DEFAULT-VALUE}).")
    Duration interval;
    @Option(names = "--duration", defaultValue = "60m", converter = DurationConverter.class,
            description = "How long the roles run (default: ${DEFAULT-VALUE}).")
    Duration duration;
    @Option(names = "--sample-every", defaultValue = "30s", converter = DurationConverter.class,
            description = "Time between samples (each forces a full GC in both roles through jcmd).")
    Duration sampleEvery;
    @Option(names = "--restart-every", defaultValue = "5m", converter = DurationConverter.class,
            description = "Time between restarts, alternating prober and aggregator.")
    Duration restartEvery;
    @Option(names = "--warmup", defaultValue = "2m", converter = DurationConverter.class,
            description = "What the verdict leaves out after each start (and, for lag, after each restart).")
    Duration warmup;
    @Option(names = "--role-heap", defaultValue = "256m", description = "-Xms/-Xmx of each role (pre-touched).")
    String roleHeap;
    @Option(names = "--cli-jar", description = "Start the roles from this jar (cli/target/healthmesh-cli.jar); "
            + "default: this JVM's class path, with the same main class.")
    Path cliJar;
    @Option(names = "--brokers", defaultValue = "1", description = "Brokers started in this JVM: 1 or 3.")
    int brokers;
    @Option(names = "--bootstrap-server", description = "Use this Kafka instead of starting one (with "
            + "--schema-registry); the soak's topics get a prefix of their own.")
    String bootstrapServer;
    @Option(names = "--schema-registry", description = "The schema registry of --bootstrap-server.")
    String schemaRegistry;
    @Option(names = "--out", defaultValue = "bench/target/soak", description = "Directory of the CSV, SVG, summary "
            + "and the roles' logs (default: ${DEFAULT-VALUE}).")
    Path out;
    @Option(names = "--time-limit", converter = DurationConverter.class, description = "The longest this command "
            + "may take, from its start: the wait for a steady start and then the clock are cut to fit (a run that "
            + "cannot fit both roles' restarts fails). Default: no limit.")
    Duration timeLimit;
    @Option(names = "--ready-timeout", defaultValue = "10m", converter = DurationConverter.class,
            description = "How long the roles may take to decide every steady target and catch up before the clock "
                    + "starts (default: ${DEFAULT-VALUE}).")
    Duration readyTimeout;
    @Option(names = "--judge", paramLabel = "CSV", description = "Judge and draw this CSV again; runs nothing.")
    Path judge;

    @Override
    public Integer call() throws Exception {
        SoakPlan plan;
        try {
            plan = new SoakPlan(targets, flapping, Math.toIntExact(interval.toMillis()), duration, sampleEvery,
                    restartEvery, warmup, roleHeap);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if ((bootstrapServer == null) != (schemaRegistry == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--bootstrap-server and --schema-registry go together");
        }
        if (cliJar != null && !Files.isRegularFile(cliJar)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cli-jar: " + cliJar + " is not a file "
                    + "(build it: mvn -q package -DskipTests)");
        }
        Files.createDirectories(out);
        SoakBounds bounds = SoakBounds.of(plan, Runtime.getRuntime().availableProcessors());
        if (judge != null) {
            return finish(plan, bounds, SoakCsv.read(judge), List.of());
        }
        long t0 = System.nanoTime();
        SoakRun.Outcome outcome;
        try {
            outcome = bootstrapServer == null ? onOwnBrokers(plan) : onCluster(plan);
        } catch (IllegalStateException e) {
            // no verdict: the roles never reached a steady start in the time they had (a machine loaded past what
            // the run can use, or a role that cannot start); told apart from a broken bound by its exit status
            System.out.println("soak verdict: NONE (" + e.getMessage() + ")");
            return NO_VERDICT;
        }
        System.err.printf("soak ran for %.1f min%n", (System.nanoTime() - t0) / 60e9);
        return finish(outcome.plan(), bounds, outcome.samples(), outcome.problems());
    }

    private SoakRun.Outcome onOwnBrokers(SoakPlan plan) throws Exception {
        try (BenchStack stack = BenchStack.start(Map.of(), brokers)) {
            return new SoakRun(plan, new SoakRun.Cluster(stack.bootstrapServers(), stack.registryUrl(), stack.admin(),
                    (short) stack.brokerCount()), launcher(), out, budget(), readyTimeout).run();
        }
    }

    private SoakRun.Outcome onCluster(SoakPlan plan) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer))) {
            int nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
            return new SoakRun(plan, new SoakRun.Cluster(bootstrapServer, schemaRegistry, admin,
                    (short) Math.min(3, nodes)), launcher(), out, budget(), readyTimeout).run();
        }
    }

    /** What is left of {@code --time-limit} since this JVM started, or null without one. */
    private Duration budget() {
        if (timeLimit == null) {
            return null;
        }
        return timeLimit.minusMillis(ManagementFactory.getRuntimeMXBean().getUptime());
    }

    /** {@code java <options> -jar <cli jar>}, or this JVM's class path with the CLI's main class. */
    private List<String> launcher() {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + roleHeap, "-Xmx" + roleHeap, "-XX:+UseG1GC",
                // the heap's pages are resident from the start: RSS then moves only with what lives outside it
                "-XX:+AlwaysPreTouch",
                "-XX:+ExitOnOutOfMemoryError"));
        if (cliJar != null) {
            command.addAll(List.of("-jar", cliJar.toAbsolutePath().toString()));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.healthmesh.cli.Healthmesh"));
        }
        return command;
    }

    private Integer finish(SoakPlan plan, SoakBounds bounds, List<SoakSample> samples, List<String> problems)
            throws Exception {
        GrowthVerdict.Result verdict = new GrowthVerdict(bounds).judge(samples);
        boolean passed = verdict.passed() && problems.isEmpty();
        Path csv = out.resolve("soak.csv");
        if (judge == null) {
            SoakCsv.write(csv, samples);
        }
        Path svg = out.resolve("soak.svg");
        SoakSvg.write(svg, samples, SoakReport.title(plan, passed));
        String summary = SoakReport.summary(plan, bounds, samples, verdict, problems, Machine.describe(),
                judge == null ? csv : judge, svg);
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println(summary);
        System.out.println(passed ? "soak verdict: PASS" : "soak verdict: FAIL (see above)");
        return passed ? 0 : 1;
    }
}
