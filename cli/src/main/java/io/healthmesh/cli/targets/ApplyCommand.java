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
import java.util.stream.IntStream;

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
        return apply(kafka, batch.entries(), dryRun, out(),
                batch.entries().size() > lines ? err : null, err);
    }

    /** Writes {@code specs} (already validated) and prints one line per target, a summary and any warning. */
    public static int apply(KafkaOptions kafka, List<TargetSpec> specs, boolean dryRun, PrintWriter out) {
        List<TargetFileReader.Entry> entries = specs.parallelStream()
                .map(s -> new TargetFileReader.Entry("", 0, s, TargetSpecs.encode(s))).toList();
        return apply(kafka, entries, dryRun, out, null, out);
    }

    /** What applying one definition does to the topic and to its target's state. */
    enum Change {
        CREATED("created"),
        UNCHANGED("unchanged"),
        UPDATED_SAME_PROBE("updated (same probe: counters kept)"),
        UPDATED_PROBE_CHANGED("updated (probe changed: back to DETECTING)");

        final String text;

        Change(String text) {
            this.text = text;
        }
    }

    /**
     * Writes {@code entries} (already validated and encoded) in their order; with {@code progress} (large applies)
     * prints the summary only and draws the write's progress there, otherwise one line per target and the summary;
     * a warning about stored definitions this apply leaves unverified ({@link OldTlsDefaultWarning}) goes to
     * {@code warnings}.
     */
    static int apply(KafkaOptions kafka, List<TargetFileReader.Entry> entries, boolean dryRun, PrintWriter out,
                     PrintWriter progress, PrintWriter warnings) {
        TargetTopic topic = new TargetTopic(kafka);
        Map<String, TargetDefinition> current = topic.read().values();
        // comparing with what the topic holds decodes and re-encodes each definition: in parallel, kept in order
        List<Change> changes = IntStream.range(0, entries.size()).parallel()
                .mapToObj(i -> change(entries.get(i).spec(), current.get(entries.get(i).spec().id()))).toList();
        List<String> ids = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        int created = 0;
        int updated = 0;
        int unchanged = 0;
        for (int i = 0; i < entries.size(); i++) {
            TargetFileReader.Entry entry = entries.get(i);
            Change change = changes.get(i);
            switch (change) {
                case CREATED -> created++;
                case UNCHANGED -> unchanged++;
                case UPDATED_SAME_PROBE, UPDATED_PROBE_CHANGED -> updated++;
            }
            if (change != Change.UNCHANGED) {
                ids.add(entry.spec().id());
                bodies.add(entry.encoded());
            }
            if (progress == null) {
                out.printf("%-32s %s%n", entry.spec().id(), change.text);
            }
        }
        if (!dryRun && !ids.isEmpty()) {
            if (progress == null) {
                topic.writeEncoded(ids, bodies, null);
            } else {
                Progress acked = new Progress(progress, "writing", "wrote and had acknowledged", topic.name(),
                        ids.size(), System::nanoTime);
                topic.writeEncoded(ids, bodies, acked);
                acked.finish();
            }
        }
        out.printf("%s %d target(s) %s %s: %d created, %d updated, %d unchanged%n",
                dryRun ? "would apply" : "applied", entries.size(), dryRun ? "to" : "in", topic.name(),
                created, updated, unchanged);
        out.flush();
        Set<String> applied = new HashSet<>();
        entries.forEach(e -> applied.add(e.spec().id()));
        OldTlsDefaultWarning.about(current.values(), applied).ifPresent(warning -> {
            warnings.println(warning);
            warnings.flush();
        });
        return 0;
    }

    /** What writing {@code spec} changes, given what the topic holds for its id ({@code null}: nothing). */
    static Change change(TargetSpec spec, TargetDefinition existing) {
        if (existing == null) {
            return Change.CREATED;
        }
        TargetSpec before = TargetSpecs.fromAvro(existing);
        TargetSpec wanted = normalized(spec);
        if (before.equals(wanted)) {
            return Change.UNCHANGED;
        }
        return ProbeFingerprint.of(before) == ProbeFingerprint.of(wanted)
                ? Change.UPDATED_SAME_PROBE : Change.UPDATED_PROBE_CHANGED;
    }

    /** The spec as it reads back from the topic: sections of other protocols dropped to their defaults. */
    static TargetSpec normalized(TargetSpec spec) {
        return TargetSpecs.fromAvro(TargetSpecs.toAvro(spec));
    }
}
