package io.healthmesh.cli.demo;

import io.healthmesh.cli.StopSignal;
import io.healthmesh.cli.UntilStopped;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.cli.targets.ApplyCommand;
import io.healthmesh.cli.watch.StateFeed;
import io.healthmesh.cli.watch.StateLines;
import io.healthmesh.cli.window.DurationConverter;
import io.healthmesh.embedded.FreePorts;
import io.healthmesh.contract.Topics;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh demo}: the stack in one process, demo backends on loopback whose targets go down and up on a
 * timer, and every state change printed as one line (the same lines as {@code watch}). Ctrl-C stops everything in
 * order: the printer, the prober, the backends, the aggregator, the registry, the broker.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run broker, schema registry, aggregator and a prober in one process, with demo targets.")
public final class DemoCommand implements Callable<Integer> {

    static final String LOG_CONFIG = "log4j2-demo.xml";
    static final String DEFAULT_LOG_CONFIG = "log4j2.xml";

    @Spec
    CommandSpec spec;

    @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "9092",
            description = "Port of the Kafka listener on 127.0.0.1 (0 = any free port; default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--registry-port", paramLabel = "PORT", defaultValue = "8081",
            description = "Port of the schema registry on 127.0.0.1 (0 = any free port; default: ${DEFAULT-VALUE}).")
    int registryPort;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Keep topics, schemas and state here; a restart on it resumes (default: a temporary "
                    + "directory deleted at exit).")
    Path dataDir;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = Topics.DEFAULT_PREFIX,
            description = "Prefix of the topic names (default: ${DEFAULT-VALUE}).")
    String topicPrefix;

    @Option(names = "--no-demo-targets", negatable = false,
            description = "Start the stack only, for your own targets.")
    boolean noDemoTargets;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Stop after this long (e.g. 2m); default: until Ctrl-C.")
    Duration duration;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (kafkaPort < 0 || kafkaPort > 65_535 || registryPort < 0 || registryPort > 65_535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "ports: " + kafkaPort + ", " + registryPort + " (expected: 0..65535)");
        }
        requireFree(kafkaPort, "--kafka-port");
        requireFree(registryPort, "--registry-port");
        boolean temporary = dataDir == null;
        Path data = temporary ? Files.createTempDirectory("healthmesh-demo-") : dataDir.toAbsolutePath();
        Files.createDirectories(data);
        Path logFile = data.resolve("healthmesh.log");
        switchLogging(LOG_CONFIG, logFile);
        // installed before anything starts: a Ctrl-C during the start still closes everything in order
        StopSignal signal = StopSignal.install("demo");
        Deque<AutoCloseable> running = new ArrayDeque<>();
        // closed last, still inside the shutdown hook's wait: on SIGTERM the JVM halts right after the close
        running.push(() -> {
            switchLogging(DEFAULT_LOG_CONFIG, null);
            if (temporary) {
                DemoStack.deleteRecursively(data);
            }
        });
        try {
            out.println("healthmesh demo: starting Kafka, the schema registry, the aggregator and a prober...");
            out.flush();
            Topics topics = new Topics(topicPrefix);
            DemoStack stack = DemoStack.start(new DemoStack.Settings(kafkaPort, registryPort, data, topics));
            running.push(stack);
            if (signal.signalled()) {
                return UntilStopped.run(signal, () -> closeAll(running), Duration.ZERO, out, "demo");
            }
            DemoBackends backends = null;
            if (!noDemoTargets) {
                backends = DemoBackends.start(Clock.systemUTC(), data.resolve(DemoBackends.PORTS_FILE));
                running.push(backends);
            }
            running.push(stack.startProber()); // closed before the backends it probes
            printBanner(out, stack, backends, data, temporary, logFile);
            KafkaOptions kafka = KafkaOptions.of(stack.bootstrapServers(), stack.registryUrl(), topicPrefix);
            if (backends != null) {
                ApplyCommand.apply(kafka, backends.targets(), false, out);
            }
            out.println();
            out.println("State changes (time, target, group, old -> new, reason; group lines with failOpen):");
            out.flush();
            StateFeed feed = new StateFeed(kafka.clientProperties(), kafka.serdeConfig(), topics);
            StateLines lines = new StateLines(Clock.systemDefaultZone(), false);
            Thread printer = new Thread(() -> feed.run(event -> {
                String line = lines.render(event);
                if (line != null) {
                    out.println(line);
                    out.flush();
                }
            }, null), "healthmesh-demo-printer");
            printer.setDaemon(true);
            printer.start();
            running.push(() -> {
                feed.close();
                printer.join(Duration.ofSeconds(10).toMillis());
            });
            return UntilStopped.run(signal, () -> closeAll(running), duration, out, "demo");
        } finally {
            try {
                closeAll(running);
            } finally {
                signal.closed();
            }
        }
    }

    /** A taken port is the most likely start failure (another demo or Kafka): say so before starting anything. */
    private static void requireFree(int port, String flag) {
        if (port != 0 && !FreePorts.isFree(InetAddress.getLoopbackAddress(), port)) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use (another demo or Kafka?); "
                    + "stop it, or pass " + flag + " 0 for a free port");
        }
    }

    private static void closeAll(Deque<AutoCloseable> running) throws Exception {
        Exception first = null;
        while (!running.isEmpty()) {
            try {
                running.pop().close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void printBanner(PrintWriter out, DemoStack stack, DemoBackends backends, Path data,
                                    boolean temporary, Path logFile) {
        out.println();
        out.println("healthmesh demo is running");
        out.println("  Kafka bootstrap   " + stack.bootstrapServers());
        out.println("  Schema registry   " + stack.registryUrl() + "   (the four value schemas are registered)");
        out.println("  Prober            region " + DemoStack.REGION + ", http://127.0.0.1:" + stack.proberOpsPort()
                + "/metrics");
        out.println("  Aggregator        http://127.0.0.1:" + stack.aggregatorOpsPort() + "/metrics");
        out.println("  Egress            loopback allowed for the demo (allow.list=" + String.join(",", DemoStack.ALLOW_LIST)
                + "); denied by default elsewhere");
        out.println("  Status page       http://127.0.0.1:" + stack.aggregatorOpsPort() + "/status/");
        out.println("  Data              " + data + (temporary ? "   (temporary, deleted at exit)" : "   (kept)"));
        out.println("  Log               " + logFile);
        if (backends != null) {
            out.println();
            out.println("Demo targets (interval " + DemoBackends.INTERVAL_MS / 1000 + " s, timeout "
                    + DemoBackends.TIMEOUT_MS + " ms, thresholds " + DemoBackends.THRESHOLD + "/"
                    + DemoBackends.THRESHOLD + "; the demo-profiles group at each product's defaults):");
            backends.describe().forEach(out::println);
        }
        out.println();
        out.println("From another terminal:");
        out.println("  ./healthmesh targets apply -f examples/targets.yaml --bootstrap-server " + stack.bootstrapServers()
                + " --schema-registry " + stack.registryUrl());
        out.println("  ./healthmesh watch --bootstrap-server " + stack.bootstrapServers() + " --schema-registry "
                + stack.registryUrl());
        out.println("Ctrl-C stops everything.");
        out.println();
        out.flush();
    }

    /** Points log4j at {@code config}; the demo's file log goes to {@code logFile}. */
    static void switchLogging(String config, Path logFile) throws URISyntaxException {
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return; // another logging backend: leave it alone
        }
        if (logFile != null) {
            System.setProperty("healthmesh.log.file", logFile.toString());
        }
        java.net.URL url = DemoCommand.class.getClassLoader().getResource(config);
        if (url != null) {
            context.setConfigLocation(url.toURI());
        }
    }
}
