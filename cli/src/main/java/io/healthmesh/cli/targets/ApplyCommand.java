package io.healthmesh.cli.targets;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.contract.target.TargetFileReader;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code healthmesh targets apply -f FILE}: validates every target of every file first and writes nothing when
 * any is invalid; otherwise writes the new and changed ones and reports what each change does to its state.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Validate target definitions (YAML or JSON) and write them to the targets topic.")
public final class ApplyCommand extends ClusterCommand {

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "FILE",
            description = "A YAML or JSON file of targets (repeatable; '-' reads standard input).")
    List<Path> files;

    @Option(names = "--dry-run", description = "Validate and show what would change, write nothing.")
    boolean dryRun;

    @Option(names = "--lines", paramLabel = "N", defaultValue = "" + DEFAULT_LINES,
            description = "Print one line per target when there are at most N targets (default: ${DEFAULT-VALUE});"
                    + " above, only the summary, and a progress bar on stderr.")
    int lines;

    /** Above this many targets, apply prints the summary only and shows its progress. */
    static final int DEFAULT_LINES = 10_000;
    /** Problems printed at most when the files are invalid; the count says how many there are. */
    private static final int MAX_ERRORS_SHOWN = 100;

    @Override
    public Integer call() {
        if (lines < 0) {
            throw new BadInputException("--lines: " + lines + " (expected: 0 or more)");
        }
        TargetFileReader.Batch batch = TargetFileReader.read(files, System.in);
        if (!batch.valid()) {
            List<String> errors = batch.errors();
            // a million bad definitions must not print a million lines: the first 100 and the count
            List<String> shown = errors.size() <= MAX_ERRORS_SHOWN ? errors : List.copyOf(errors.subList(0,
                    MAX_ERRORS_SHOWN));
            throw new BadInputException(errors.size() + " problem(s) found; nothing was applied"
                    + (shown.size() < errors.size() ? " (the first " + MAX_ERRORS_SHOWN + " below)" : ""), shown);
        }
        PrintWriter err = spec.commandLine().getErr();
        return apply(kafka, batch.specs(), dryRun, out(),
                batch.specs().size() > lines ? err : null, err);
    }

    /** Writes {@code specs} (already validated) and prints one line per target, a summary and any warning. */
    public static int apply(KafkaOptions kafka, List<TargetSpec> specs, boolean dryRun, PrintWriter out) {
        return apply(kafka, specs, dryRun, out, null, out);
    }

    /**
     * Writes {@code specs} (already validated); with {@code progress} (large applies) prints the summary only and
     * draws the write's progress there, otherwise one line per target and the summary; a warning about stored
     * definitions this apply leaves unverified ({@link OldTlsDefaultWarning}) goes to {@code warnings}.
     */
    static int apply(KafkaOptions kafka, List<TargetSpec> specs, boolean dryRun, PrintWriter out,
                     PrintWriter progress, PrintWriter warnings) {
        TargetTopic topic = new TargetTopic(kafka);
        Map<String, TargetDefinition> current = topic.read().values();
        List<TargetSpec> toWrite = new ArrayList<>();
        int created = 0;
        int updated = 0;
        int unchanged = 0;
        for (TargetSpec s : specs) {
            TargetSpec wanted = normalized(s);
            TargetDefinition existing = current.get(s.id());
            String what;
            if (existing == null) {
                what = "created";
                created++;
                toWrite.add(wanted);
            } else {
                TargetSpec before = TargetSpecs.fromAvro(existing);
                if (before.equals(wanted)) {
                    what = "unchanged";
                    unchanged++;
                } else {
                    updated++;
                    toWrite.add(wanted);
                    what = ProbeFingerprint.of(before) == ProbeFingerprint.of(wanted)
                            ? "updated (same probe: counters kept)"
                            : "updated (probe changed: back to DETECTING)";
                }
            }
            if (progress == null) {
                out.printf("%-32s %s%n", s.id(), what);
            }
        }
        if (!dryRun && !toWrite.isEmpty()) {
            if (progress == null) {
                topic.write(toWrite);
            } else {
                Progress acked = new Progress(progress, "writing", "wrote and had acknowledged", topic.name(),
                        toWrite.size(), System::nanoTime);
                topic.write(toWrite, acked);
                acked.finish();
            }
        }
        out.printf("%s %d target(s) %s %s: %d created, %d updated, %d unchanged%n",
                dryRun ? "would apply" : "applied", specs.size(), dryRun ? "to" : "in", topic.name(),
                created, updated, unchanged);
        out.flush();
        Set<String> applied = new HashSet<>();
        specs.forEach(s -> applied.add(s.id()));
        OldTlsDefaultWarning.about(current.values(), applied).ifPresent(warning -> {
            warnings.println(warning);
            warnings.flush();
        });
        return 0;
    }

    /** The spec as it reads back from the topic: sections of other protocols dropped to their defaults. */
    static TargetSpec normalized(TargetSpec spec) {
        return TargetSpecs.fromAvro(TargetSpecs.toAvro(spec));
    }
}
