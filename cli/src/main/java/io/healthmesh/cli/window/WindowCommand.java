package io.healthmesh.cli.window;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.targets.TargetFileReader;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh window}: how long a target takes to turn UNHEALTHY and HEALTHY (SPEC section 5), with the
 * formula, for the targets of a file or for timing given as flags. Needs no cluster.
 */
@Command(name = "window", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the time to turn unhealthy and healthy, with the formula (SPEC section 5).")
public final class WindowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Source source;

    @Option(names = "--response-time", paramLabel = "DURATION", defaultValue = "0ms",
            converter = DurationConverter.class,
            description = "How long an answering L7 probe takes (default: ${DEFAULT-VALUE}).")
    Duration responseTime;

    /** Either a file or flags. */
    static final class Source {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Targets file (YAML or JSON).")
        Path file;

        @ArgGroup(exclusive = false)
        Timing timing;
    }

    /** Timing given on the command line; absent flags take the defaults of SPEC section 5. */
    static final class Timing {
        @Option(names = "--protocol", paramLabel = "PROTOCOL", description = "TCP, UDP, HTTP, HTTPS or ICMP (default: HTTP).")
        Protocol protocol = Protocol.HTTP;

        @Option(names = "--interval", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Probe interval (default: 5s).")
        Duration interval = Duration.ofMillis(TargetSpec.DEFAULT_INTERVAL_MS);

        @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Probe timeout (default: 2s).")
        Duration timeout = Duration.ofMillis(TargetSpec.DEFAULT_TIMEOUT_MS);

        @Option(names = "--healthy-threshold", paramLabel = "N", description = "Successes in a row (default: 3).")
        int healthyThreshold = TargetSpec.DEFAULT_HEALTHY_THRESHOLD;

        @Option(names = "--unhealthy-threshold", paramLabel = "N", description = "Failures in a row (default: 3).")
        int unhealthyThreshold = TargetSpec.DEFAULT_UNHEALTHY_THRESHOLD;
    }

    @Override
    public Integer call() {
        List<TargetSpec> specs;
        if (source != null && source.file != null) {
            TargetFileReader.Batch batch = TargetFileReader.read(List.of(source.file), System.in);
            if (!batch.valid()) {
                throw new BadInputException(batch.errors().size() + " problem(s) found", batch.errors());
            }
            specs = batch.specs();
        } else {
            specs = List.of(fromFlags(source == null || source.timing == null ? new Timing() : source.timing));
        }
        PrintWriter out = spec.commandLine().getOut();
        for (TargetSpec s : specs) {
            print(out, s, responseTime);
        }
        out.flush();
        return 0;
    }

    static TargetSpec fromFlags(Timing t) {
        TargetSpec s = TargetSpec.of("(flags)", TargetSpec.DEFAULT_GROUP, "127.0.0.1", TargetSpec.DEFAULT_PORT,
                        t.protocol)
                .withTiming(toIntMillis(t.interval), toIntMillis(t.timeout))
                .withThresholds(t.healthyThreshold, t.unhealthyThreshold);
        List<Violation> violations = TargetValidator.validate(s);
        if (!violations.isEmpty()) {
            throw new BadInputException("the timing is not valid",
                    violations.stream().map(v -> flagName(v.field()) + ": " + v.message()).toList());
        }
        return s;
    }

    private static int toIntMillis(Duration d) {
        long ms = d.toMillis();
        return ms > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) ms;
    }

    private static String flagName(String field) {
        return switch (field) {
            case "intervalMs" -> "--interval (ms)";
            case "timeoutMs" -> "--timeout (ms)";
            case "healthyThreshold" -> "--healthy-threshold";
            case "unhealthyThreshold" -> "--unhealthy-threshold";
            default -> field;
        };
    }

    static void print(PrintWriter out, TargetSpec s, Duration responseTime) {
        DetectionWindow w = DetectionWindow.of(s, responseTime);
        out.printf("%s  %s  interval %s, timeout %s, healthyThreshold %d, unhealthyThreshold %d (%s)%n",
                s.id(), s.protocol(), DetectionWindow.seconds(s.intervalMs()), DetectionWindow.seconds(s.timeoutMs()),
                s.healthyThreshold(), s.unhealthyThreshold(),
                s.protocol().isLayer7() ? "L7, fixed delay" : "L4, fixed rate");
        out.printf("  to UNHEALTHY: %-8s %s%n", DetectionWindow.seconds(w.toUnhealthy().toMillis()),
                w.unhealthyFormula());
        out.printf("  to HEALTHY:   %-8s %s%n", DetectionWindow.seconds(w.toHealthy().toMillis()), w.healthyFormula());
    }
}
