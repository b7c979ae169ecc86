package io.healthmesh.bench;

import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.cli.Healthmesh;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh targets apply} of a whole fleet at once: a generated file of many definitions ({@link TargetsFile})
 * applied to a loopback cluster (one broker, or three replicating ones) by the CLI's own code in this JVM, then
 * applied again unchanged (the "nothing to do" pass reads the whole topic back). Prints the rates as a markdown
 * section for docs/BENCHMARKS.md.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "`targets apply` of many definitions: written and acknowledged per second, then a re-apply.")
public final class IngestBench implements Callable<Integer> {

    @Option(names = "--targets", defaultValue = "1000000", description = "Definitions in the file.")
    int targets;

    @Option(names = "--brokers", defaultValue = "1", description = "1, or 3 replicating brokers (acks=all).")
    int brokers;

    @Option(names = "--out", description = "Also write the report to this file.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Path dir = Files.createTempDirectory("healthmesh-ingest-");
        Path file = dir.resolve("targets.json");
        long g0 = System.nanoTime();
        TargetsFile.write(file, targets);
        double generate = (System.nanoTime() - g0) / 1e9;
        double first;
        double second;
        try (BenchStack stack = BenchStack.start(Map.of(), brokers)) {
            String[] apply = {"targets", "apply", "-f", file.toString(), "--bootstrap-server",
                    stack.bootstrapServers(), "--schema-registry", stack.registryUrl()};
            first = timed(apply, "first apply");
            second = timed(apply, "re-apply, unchanged");
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        String report = String.format(Locale.ROOT, """
                ### `targets apply` of %,d definitions, run of %s

                - command: `java -jar bench/target/bench.jar ingest --targets %d --brokers %d`
                - machine: %s
                - the file (%s) generated in %.1f s; the CLI runs in the brokers' JVM (heap max %d MiB)

                | pass | seconds | definitions/s |
                |---|---|---|
                | first apply: read, validate, read the topic, write, every record acknowledged | %.1f | %,.0f |
                | re-apply, nothing changed: read, validate, read the topic back | %.1f | %,.0f |
                """, targets, started, targets, brokers, Machine.describe(), "JSON", generate,
                Runtime.getRuntime().maxMemory() >> 20, first, targets / first, second, targets / second);
        System.out.println(report);
        if (out != null) {
            Files.writeString(out, report);
        }
        return 0;
    }

    private static double timed(String[] args, String what) {
        StringWriter outText = new StringWriter();
        StringWriter errText = new StringWriter();
        long t0 = System.nanoTime();
        int code = Healthmesh.execute(args, new PrintWriter(outText), new PrintWriter(errText));
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (code != 0) {
            throw new IllegalStateException(what + " failed with exit " + code + ": " + errText);
        }
        String[] lines = outText.toString().split("\n");
        System.err.printf("%s: %.1f s (%s); gc %d ms so far%n", what, seconds, lines[lines.length - 1],
                ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(b -> b.getCollectionTime()).sum());
        return seconds;
    }
}
