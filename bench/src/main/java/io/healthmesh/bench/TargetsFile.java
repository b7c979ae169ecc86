package io.healthmesh.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.bench.run.RestorePhase;
import io.healthmesh.cli.output.AvroJson;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Writes a file of many target definitions that {@code healthmesh targets apply -f} accepts as it is: a JSON list,
 * each element the definition as {@code targets get -o json} prints it. The targets are TCP targets in TEST-NET-1
 * (192.0.2.0/24, never routed) in groups of 100, so applying the file to a real cluster probes nothing that answers.
 */
@Command(name = "targets-file", mixinStandardHelpOptions = true,
        description = "Write a JSON file of many target definitions for `healthmesh targets apply`.")
public final class TargetsFile implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--targets", defaultValue = "1000000", description = "How many definitions (1..10000000).")
    int targets;

    @Option(names = "--out", required = true, description = "The file to write (replaced).")
    Path out;

    @Override
    public Integer call() throws IOException {
        if (targets < 1 || targets > 10_000_000) {
            throw new IllegalArgumentException("--targets: " + targets + " (expected: 1..10000000)");
        }
        long t0 = System.nanoTime();
        write(out, targets);
        System.out.printf("%,d definitions written to %s (%,d bytes) in %.1f s%n", targets, out, Files.size(out),
                (System.nanoTime() - t0) / 1e9);
        return 0;
    }

    /** Writes {@code count} definitions to {@code file}, streaming: the file is never held in memory. */
    static void write(Path file, int count) throws IOException {
        try (JsonGenerator g = JSON.getFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            g.writeStartArray();
            for (TargetSpec spec : RestorePhase.specs(count)) {
                g.writeTree(AvroJson.of(TargetSpecs.toAvro(spec), true));
                g.writeRaw('\n');
            }
            g.writeEndArray();
        }
    }
}
