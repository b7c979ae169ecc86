package io.healthmesh.cli.window;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.contract.target.TargetFileReader;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;
import io.healthmesh.core.target.WorkedExample;
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
 * {@code healthmesh window}: how long a target takes to turn UNHEALTHY and HEALTHY (BEHAVIOUR.md section 5), with the
 * formula, for the targets of a file or for timing given as flags. Needs no cluster.
 */
@Command(name = "window", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the time to turn unhealthy and healthy, with the formula (BEHAVIOUR.md section 5).")
public final class WindowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Source source;

    @Option(names = "--response-time", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long an answering probe takes at a fixed delay (default: 0ms; with --profile alone, "
                    + "the document's example: 1s).")
    Duration responseTime;

    @Option(names = "--profile", paramLabel = "PROFILE",
            description = "GENERIC, TENCENT_CLB, TENCENT_EDGEONE, ALIBABA_NLB or ALIBABA_GA: absent flags take that "
                    + "product's defaults; with no timing flag, the document's worked examples are printed "
                    + "(docs/PROFILES.md).")
    TargetProfile profile;

    /** Either a file or flags. */
    static final class Source {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Targets file (YAML or JSON).")
        Path file;

        @ArgGroup(exclusive = false)
        Timing timing;
    }

    /** Timing given on the command line; absent flags take the profile's defaults (GENERIC: BEHAVIOUR.md section 5). */
    static final class Timing {
        @Option(names = "--protocol", paramLabel = "PROTOCOL", description = "TCP, UDP, HTTP, HTTPS or ICMP (default: HTTP).")
        Protocol protocol = Protocol.HTTP;

        @Option(names = "--interval", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Probe interval (default: the profile's; GENERIC 5s).")
        Duration interval;

        @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "Probe timeout (default: the profile's; GENERIC 2s).")
        Duration timeout;

        @Option(names = "--healthy-threshold", paramLabel = "N",
                description = "Successes in a row (default: the profile's; GENERIC 3).")
        Integer healthyThreshold;

        @Option(names = "--unhealthy-threshold", paramLabel = "N",
                description = "Failures in a row (default: the profile's; GENERIC 3).")
        Integer unhealthyThreshold;

        @Option(names = "--fast-interval", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "fastIntervalMs: the interval while a change of state is pending (default: absent, "
                        + "the interval; GENERIC only).")
        Duration fastInterval;

        @Option(names = "--down-interval", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "downIntervalMs: the interval while UNHEALTHY (default: absent, the interval; "
                        + "GENERIC only).")
        Duration downInterval;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (profile != null && (source == null || source.file == null && source.timing == null)
                && !ProfileTable.of(profile).examples().isEmpty()) {
            printExamples(out, profile, responseTime);
            out.flush();
            return 0;
        }
        List<TargetSpec> specs;
        if (source != null && source.file != null) {
            TargetFileReader.Batch batch = TargetFileReader.read(List.of(source.file), System.in);
            if (!batch.valid()) {
                throw new BadInputException(batch.errors().size() + " problem(s) found", batch.errors());
            }
            specs = batch.specs();
        } else {
            specs = List.of(fromFlags(source == null || source.timing == null ? new Timing() : source.timing,
                    profile == null ? TargetProfile.GENERIC : profile));
        }
        Duration answer = responseTime == null ? Duration.ZERO : responseTime;
        for (TargetSpec s : specs) {
            print(out, s, answer);
        }
        out.flush();
        return 0;
    }

    /** The document's worked examples under {@code profile}, each with the document's figures beside ours. */
    static void printExamples(PrintWriter out, TargetProfile profile, Duration responseTime) {
        for (WorkedExample example : ProfileTable.of(profile).examples()) {
            TargetSpec s = example.toSpec(profile, profile + " example", "127.0.0.1", TargetSpec.DEFAULT_PORT);
            Duration answer = responseTime != null ? responseTime : Duration.ofMillis(example.responseMs());
            out.printf("%s, worked example (%s): %s to UNHEALTHY, %s to HEALTHY with %s answers%n", profile,
                    example.source(), DetectionWindow.seconds(example.toUnhealthyMs()),
                    DetectionWindow.seconds(example.toHealthyMs()), DetectionWindow.seconds(example.responseMs()));
            print(out, s, answer);
        }
    }

    static TargetSpec fromFlags(Timing t, TargetProfile profile) {
        ProfileTable p = ProfileTable.of(profile);
        int healthy = t.healthyThreshold != null ? t.healthyThreshold : p.defaultHealthyThreshold();
        int unhealthy = t.unhealthyThreshold != null ? t.unhealthyThreshold
                : p.oneThreshold() ? healthy : p.defaultUnhealthyThreshold();
        TargetSpec s = p.newSpec("(flags)", TargetSpec.DEFAULT_GROUP, "127.0.0.1", TargetSpec.DEFAULT_PORT, t.protocol)
                .withTiming(t.interval != null ? toIntMillis(t.interval) : p.defaultIntervalMs(),
                        t.timeout != null ? toIntMillis(t.timeout) : p.defaultTimeoutMs())
                .withThresholds(healthy, unhealthy)
                .withIntervals(t.fastInterval != null ? toIntMillis(t.fastInterval) : null,
                        t.downInterval != null ? toIntMillis(t.downInterval) : null);
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
            case "fastIntervalMs" -> "--fast-interval (ms)";
            case "downIntervalMs" -> "--down-interval (ms)";
            default -> field;
        };
    }

    static void print(PrintWriter out, TargetSpec s, Duration responseTime) {
        DetectionWindow w = DetectionWindow.of(s, responseTime);
        out.printf("%s  %s  interval %s, timeout %s, healthyThreshold %d, unhealthyThreshold %d (%s)%n",
                s.id(), s.protocol(), DetectionWindow.seconds(s.intervalMs()), DetectionWindow.seconds(s.timeoutMs()),
                s.healthyThreshold(), s.unhealthyThreshold(),
                s.fixedDelay() ? (s.protocol().isLayer7() ? "L7, fixed delay" : "fixed delay under " + s.profile())
                        : "L4, fixed rate");
        out.printf("  to UNHEALTHY: %-8s %s%n", DetectionWindow.seconds(w.toUnhealthy().toMillis()),
                w.unhealthyFormula());
        out.printf("  to HEALTHY:   %-8s %s%n", DetectionWindow.seconds(w.toHealthy().toMillis()), w.healthyFormula());
        if (s.hasStateIntervals()) {
            // BEHAVIOUR.md 5b: the windows above start at the first disagreeing probe; these add the wait for it
            out.printf("  fastInterval %s, downInterval %s%n", DetectionWindow.seconds(s.fastIntervalOrDefault()),
                    DetectionWindow.seconds(s.downIntervalOrDefault()));
            long failWait = DetectionWindow.untilFirstFailingProbe(s, responseTime).toMillis();
            long upWait = DetectionWindow.untilFirstSucceedingProbe(s).toMillis();
            String failLast = s.fixedDelay() ? "" : " + the last probe's timeout " + DetectionWindow.seconds(s.timeoutMs());
            String upLast = s.fixedDelay() ? ""
                    : " + the last probe's response time " + DetectionWindow.seconds(responseTime.toMillis());
            out.printf("  from a failure to UNHEALTHY:  at most %s (%s until the first failing probe + %s%s)%n",
                    DetectionWindow.seconds(w.fromFailureAtMost(s, responseTime).toMillis()),
                    DetectionWindow.seconds(failWait), DetectionWindow.seconds(w.toUnhealthy().toMillis()), failLast);
            out.printf("  from a recovery to HEALTHY:   at most %s (%s until the first succeeding probe + %s%s)%n",
                    DetectionWindow.seconds(w.fromRecoveryAtMost(s, responseTime).toMillis()),
                    DetectionWindow.seconds(upWait), DetectionWindow.seconds(w.toHealthy().toMillis()), upLast);
        }
    }
}
