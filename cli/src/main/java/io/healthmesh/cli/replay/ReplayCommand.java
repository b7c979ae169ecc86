package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.topology.Decoded;
import io.healthmesh.aggregator.topology.InputDecoder;
import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.window.DurationConverter;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.replay.Alternatives;
import io.healthmesh.replay.GroupThresholds;
import io.healthmesh.replay.IntervalEstimate;
import io.healthmesh.replay.MaintenanceCheck;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.replay.DefinitionRecord;
import io.healthmesh.replay.EmittedEvent;
import io.healthmesh.replay.ReplayEngine;
import io.healthmesh.replay.ReplayReport;
import io.healthmesh.replay.ReplayResult;
import io.healthmesh.replay.ReplayWindow;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.ResultFieldsDeserializer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code healthmesh replay}: what other thresholds, quorum or staleness would have done over a range of the recorded
 * probe results, next to what the settings in force did; the run as configured is checked against the state events
 * the aggregator emitted.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replay recorded probe results through the aggregator's rules, as configured and with other "
                + "settings: flips, flaps, outage detection delays and fail-open time, per target and in total.",
                "The run as configured must reproduce the aggregator's state events in the range (exit 3 if not)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:runtime failure", "2:bad usage or bad input (no data, unknown target)",
                "3:self-check failed: the run as configured differs from the aggregator's events"})
public final class ReplayCommand extends ClusterCommand {

    /** Exit code when the run as configured does not reproduce the aggregator's events. */
    public static final int MISMATCH = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Option(names = "--from", paramLabel = "TIME",
            description = "Start of the range: an instant (2026-12-01T08:00:00Z) or a duration ago (30m); "
                    + "default: the beginning of the topics.")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "End of the range, same forms; default: now.")
    String to;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "10m",
            description = "Results read before --from to bring each target to the aggregator's state "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only targets of this group (repeatable).")
    List<String> groups;

    @Option(names = "--target", paramLabel = "ID", description = "Only this target (repeatable).")
    List<String> targets;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Only targets with this label (repeatable: all "
            + "must match).")
    Map<String, String> labels;

    @Option(names = "--healthy", paramLabel = "N", description = "Alternative healthy threshold (1.."
            + TargetValidator.MAX_THRESHOLD + ").")
    Integer healthy;

    @Option(names = "--unhealthy", paramLabel = "N", description = "Alternative unhealthy threshold (1.."
            + TargetValidator.MAX_THRESHOLD + ").")
    Integer unhealthy;

    @Option(names = "--quorum", paramLabel = "POLICY", description = "Alternative quorum: ANY, MAJORITY, ALL or "
            + "AT_LEAST:K.")
    String quorum;

    @Option(names = "--stale-after", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Alternative staleness window (silence after which a region stops voting).")
    Duration staleAfter;

    @Option(names = "--flap-span", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "1m",
            description = "A flip reversed within this span is a flap (default: ${DEFAULT-VALUE}).")
    Duration flapSpan;

    @Option(names = "--min-outage", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "10s", description = "Failures in a row for at least this long are a real outage "
            + "(default: ${DEFAULT-VALUE}).")
    Duration minOutage;

    @Option(names = "--staleness-factor", paramLabel = "F", defaultValue = "3.0",
            description = "The aggregator's staleness.factor (default: ${DEFAULT-VALUE}).")
    double stalenessFactor;

    @Option(names = "--punctuate-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "1s", description = "The aggregator's punctuate.interval.ms (default: ${DEFAULT-VALUE}).")
    Duration punctuateInterval;

    @Option(names = "--panic", paramLabel = "P%|N", description = "Alternative panic threshold for every group: a "
            + "percentage (30%) or a count (2) of HEALTHY or DISABLED members, default margins; without it both runs "
            + "use the groups' recorded policies.")
    String panic;

    @Option(names = "--fast-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Alternative fastIntervalMs for every target: an estimate from the recorded results "
                    + "(BEHAVIOUR.md 5b), shown next to the recorded run.")
    Duration fastInterval;

    @Option(names = "--down-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Alternative downIntervalMs for every target, estimated the same way.")
    Duration downInterval;

    @Option(names = "--profile", paramLabel = "PROFILE", description = "Judge the alternative definitions under this "
            + "product profile's rules (ranges of interval, timeout, thresholds; probe rules); a definition the "
            + "profile forbids refuses the replay with the validator's message.")
    String profile;

    @Option(names = "--aggregator-group", paramLabel = "ID", defaultValue = AggregatorConfig.DEFAULT_APPLICATION_ID,
            description = "The aggregator's application.id: the self-check compares only what the input records it "
                    + "committed caused (default: ${DEFAULT-VALUE}).")
    String aggregatorGroup;

    @Option(names = "--maintenance-tolerance", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "5s", description = "The self-check accepts an event's maintenance window when the windows "
            + "recorded up to this long before it give it (the aggregator reads a window record a little after its "
            + "timestamp; default: ${DEFAULT-VALUE}).")
    Duration maintenanceTolerance;

    @Option(names = "--no-check", description = "Do not compare the run as configured with the aggregator's events.")
    boolean noCheck;

    @Option(names = "--json", description = "One JSON document instead of text.")
    boolean json;

    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = spec.commandLine().getErr();
        Instant now = clock.instant();
        long toMs = to == null ? now.toEpochMilli() : time("--to", to, now);
        long fromMs = from == null ? Long.MIN_VALUE : time("--from", from, now);
        if (fromMs >= toMs) {
            throw new BadInputException("--from: " + Instant.ofEpochMilli(fromMs) + " (expected: before --to "
                    + Instant.ofEpochMilli(toMs) + ")");
        }
        long readFromMs = fromMs == Long.MIN_VALUE ? Long.MIN_VALUE : fromMs - warmup.toMillis();
        ReplayWindow window = new ReplayWindow(readFromMs, fromMs, toMs);
        Alternatives alternatives = alternatives();
        PanicThreshold panicOverride = panic == null ? null : panicThreshold(panic);
        IntervalWhatIf whatIf = IntervalWhatIf.of(fastInterval, downInterval, profile);
        StalenessRule staleness;
        try {
            staleness = new StalenessRule(stalenessFactor);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--staleness-factor: " + stalenessFactor + " (expected: 1..100)");
        }
        Topics topics = kafka.topics();
        try (AvroSerde<TargetDefinition> defSerde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
             ResultFieldsDeserializer resultFields = ResultFieldsDeserializer.fromConfig(kafka.serdeConfig());
             AvroSerde<TargetHealth> healthSerde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
             KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                     TopicRange.consumerProperties(kafka.clientProperties()), new StringDeserializer(),
                     new ByteArrayDeserializer())) {
            InputDecoder decoder = new InputDecoder(defSerde.deserializer(), resultFields);
            // the aggregator's progress and the end of its state events, taken together: a transaction it commits
            // between the two reads would pair events with inputs replay leaves out, so the pair is read until the
            // progress is the same before and after the state topic's end (a stopped aggregator: at once)
            // (the group events and the end of the group task's input, its repartition topic, likewise)
            AggregatorProgress progressOfAggregator = new AggregatorProgress(aggregatorGroup, Map.of());
            TopicRange events = null;
            TopicRange groupEvents = null;
            Map<TopicPartition, Long> repartitionEnd = Map.of();
            for (int attempt = 0; attempt < 5 && !noCheck; attempt++) {
                AggregatorProgress before = AggregatorProgress.of(kafka.clientProperties(), aggregatorGroup, TIMEOUT);
                events = TopicRange.of(consumer, topics.healthState(), Long.MIN_VALUE, toMs, TIMEOUT);
                groupEvents = TopicRange.of(consumer, topics.groupState(), Long.MIN_VALUE, toMs, TIMEOUT);
                repartitionEnd = RecordedGroups.repartitionEnd(consumer, aggregatorGroup, TIMEOUT);
                progressOfAggregator = AggregatorProgress.of(kafka.clientProperties(), aggregatorGroup, TIMEOUT);
                if (before.equals(progressOfAggregator)) {
                    break;
                }
            }
            if (events == null) {
                events = TopicRange.of(consumer, topics.healthState(), Long.MIN_VALUE, toMs, TIMEOUT);
            }
            if (!noCheck && progressOfAggregator.unknown()) {
                err.println("note: group " + aggregatorGroup + " committed no offsets (is --aggregator-group the "
                        + "aggregator's application.id?): inputs are compared up to --to, not up to what it processed");
            }
            TopicRange results = progressOfAggregator.bound(
                    TopicRange.of(consumer, topics.probeResults(), readFromMs, toMs, TIMEOUT));
            if (results.size() == 0) {
                throw new BadInputException("no probe results in " + topics.probeResults() + " between "
                        + describe(readFromMs) + " and " + Instant.ofEpochMilli(toMs) + " (nothing to replay)");
            }
            Map<String, List<DefinitionRecord>> definitions = new TreeMap<>();
            Map<String, List<TargetSpec>> specs = new TreeMap<>();
            Map<String, List<MaintenanceCheck.Membership>> members = new TreeMap<>();
            progressOfAggregator.bound(TopicRange.of(consumer, topics.targets(), Long.MIN_VALUE, toMs, TIMEOUT))
                    .read(consumer, TIMEOUT,
                    r -> readDefinition(r, decoder, definitions, specs, members));
            TreeSet<String> selected = select(specs, topics);
            definitions.keySet().retainAll(selected);
            if (whatIf != null) {
                Map<String, TargetSpec> latest = new TreeMap<>();
                selected.forEach(id -> latest.put(id, specs.get(id).get(specs.get(id).size() - 1)));
                whatIf.check(latest, alternatives);
            }

            Map<String, List<EmittedEvent>> emitted = new TreeMap<>();
            List<MaintenanceCheck.Mark> marks = new ArrayList<>();
            events.read(consumer, TIMEOUT, r -> {
                if (r.key() != null && selected.contains(r.key())) {
                    readEvent(r, healthSerde, emitted, r.timestamp() >= fromMs ? marks : null);
                }
            });
            List<MaintenanceCheck.WindowRecord> windows = noCheck ? null : RecordedMaintenance.read(consumer,
                    topics.maintenance(), kafka.serdeConfig(), toMs, TIMEOUT);

            ReplayEngine engine = new ReplayEngine(window, definitions, emitted, staleness, alternatives,
                    punctuateInterval.toMillis(), minOutage.toMillis());
            List<MaintenanceCheck.GroupMark> groupMarks = new ArrayList<>();
            if (groupEvents != null) {
                Map<String, List<String>> groupsOf = new TreeMap<>();
                specs.forEach((id, versions) -> groupsOf.put(id, versions.stream().map(TargetSpec::group).toList()));
                engine.checkGroups(RecordedGroups.input(consumer, topics, kafka.serdeConfig(), groupsOf, selected,
                        groupEvents, groupMarks, progressOfAggregator, repartitionEnd, fromMs, toMs, TIMEOUT));
            }
            if (windows != null) {
                engine.checkMaintenance(MaintenanceCheck.both(
                        MaintenanceCheck.compare(windows, members, marks, maintenanceTolerance.toMillis()),
                        MaintenanceCheck.compareGroups(windows, groupMarks, maintenanceTolerance.toMillis())));
            }
            Progress progress = new Progress(err, "reading", "read", topics.probeResults(), results.size(),
                    System::nanoTime);
            long[] inRange = {0};
            boolean all = selected.size() == specs.size();
            results.read(consumer, TIMEOUT, r -> {
                progress.advance();
                if (r.key() == null || r.value() == null || (!all && !selected.contains(r.key()))) {
                    return;
                }
                Decoded<ProbeObservation> o = decoder.result(r.topic(), r.key(), r.value());
                if (o.isRejected()) {
                    return; // the aggregator rejects it too
                }
                if (r.timestamp() >= fromMs && r.timestamp() <= toMs && definitions.containsKey(r.key())) {
                    inRange[0]++;
                }
                engine.result(r.key(), r.timestamp(), o.value());
                if (whatIf != null && r.timestamp() <= toMs) {
                    whatIf.result(r.key(), o.value());
                }
            });
            progress.finish();
            if (inRange[0] == 0) {
                throw new BadInputException("no probe results of the selected targets between " + describe(fromMs)
                        + " and " + Instant.ofEpochMilli(toMs) + " (" + progress.done() + " records read from "
                        + topics.probeResults() + ", none for " + String.join(", ", selected) + ")");
            }
            ReplayResult result = engine.finish();
            GroupThresholds thresholds = new GroupThresholds(RecordedPolicies.read(consumer, topics, kafka.serdeConfig(), toMs, TIMEOUT), panicOverride);
            ReplayReport report = result.report(flapSpan.toMillis(), thresholds);
            List<IntervalEstimate.TargetEstimate> estimates = whatIf == null ? List.of()
                    : whatIf.estimate(fromMs, toMs);
            if (json) {
                out.println(ReplayJson.of(result, report, progress, whatIf, estimates, flapSpan, minOutage, !noCheck));
            } else {
                new ReplayText(out).print(result, report, !noCheck, flapSpan, minOutage);
                if (whatIf != null) {
                    whatIf.print(out, estimates);
                }
            }
            out.flush();
            return noCheck || result.check().matches() ? 0 : MISMATCH;
        }
    }

    /** {@code --panic}: {@code P%} is a percentage (1..100), {@code N} a count of members, with the default margins. */
    static PanicThreshold panicThreshold(String text) {
        String t = text.strip();
        try {
            if (t.endsWith("%")) {
                return PanicThreshold.of(Integer.parseInt(t.substring(0, t.length() - 1).strip()), null);
            }
            return PanicThreshold.of(null, Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new BadInputException("--panic: " + text + " (expected: a percentage such as 30% or a count such as 2)");
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--panic: " + text + " (" + e.getMessage() + ")");
        }
    }

    private Alternatives alternatives() {
        checkThreshold("--healthy", healthy);
        checkThreshold("--unhealthy", unhealthy);
        return new Alternatives(healthy, unhealthy, quorum == null ? null : quorum(quorum), staleAfter);
    }

    private static void checkThreshold(String name, Integer value) {
        if (value != null && (value < 1 || value > TargetValidator.MAX_THRESHOLD)) {
            throw new BadInputException(name + ": " + value + " (expected: 1.." + TargetValidator.MAX_THRESHOLD + ")");
        }
    }

    /** {@code ANY}, {@code MAJORITY}, {@code ALL} or {@code AT_LEAST:K}. */
    static QuorumRule quorum(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        try {
            if (t.startsWith("AT_LEAST:")) {
                return new QuorumRule(QuorumPolicy.AT_LEAST, Integer.parseInt(t.substring("AT_LEAST:".length())));
            }
            QuorumPolicy policy = QuorumPolicy.valueOf(t);
            if (policy != QuorumPolicy.AT_LEAST) {
                return new QuorumRule(policy, 1);
            }
        } catch (IllegalArgumentException e) {
            // the message below
        }
        throw new BadInputException("--quorum: " + text + " (expected: ANY, MAJORITY, ALL or AT_LEAST:K with K >= 1)");
    }

    /** An instant (ISO-8601) or a duration ago. */
    static long time(String name, String text, Instant now) {
        try {
            return Instant.parse(text.trim()).toEpochMilli();
        } catch (DateTimeParseException notAnInstant) {
            try {
                return now.minus(DurationConverter.parse(text)).toEpochMilli();
            } catch (CommandLine.TypeConversionException notADuration) {
                throw new BadInputException(name + ": " + text
                        + " (expected: an instant such as 2026-12-01T08:00:00Z or a duration ago such as 30m)");
            }
        }
    }

    private static void readDefinition(ConsumerRecord<String, byte[]> r, InputDecoder decoder,
                                       Map<String, List<DefinitionRecord>> definitions,
                                       Map<String, List<TargetSpec>> specs,
                                       Map<String, List<MaintenanceCheck.Membership>> members) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            if (definitions.containsKey(r.key())) {
                definitions.get(r.key()).add(new DefinitionRecord(r.key(), r.timestamp(), r.offset(), null));
            }
            return;
        }
        Decoded<TargetSpec> spec = decoder.definition(r.topic(), r.key(), r.value());
        if (spec.isRejected()) {
            return; // the aggregator rejects it and keeps the definition in force
        }
        definitions.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new DefinitionRecord(r.key(), r.timestamp(),
                r.offset(), TargetEssentials.of(spec.value())));
        specs.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(spec.value());
        members.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new MaintenanceCheck.Membership(r.timestamp(),
                spec.value().group(), spec.value().labels()));
    }

    private static void readEvent(ConsumerRecord<String, byte[]> r, AvroSerde<TargetHealth> serde,
                                  Map<String, List<EmittedEvent>> emitted, List<MaintenanceCheck.Mark> marks) {
        try {
            TargetHealth health = r.value() == null ? null : serde.deserializer().deserialize(r.topic(), r.value());
            emitted.computeIfAbsent(r.key(), k -> new ArrayList<>())
                    .add(EmittedEvents.of(r.key(), r.timestamp(), r.offset(), health));
            if (marks != null && health != null) {
                marks.add(RecordedMaintenance.mark(r.key(), r.offset(), health));
            }
        } catch (RuntimeException e) {
            // an event replay cannot read is left out; the self-check then names the difference it makes
        }
    }

    private TreeSet<String> select(Map<String, List<TargetSpec>> specs, Topics topics) {
        if (specs.isEmpty()) {
            throw new BadInputException("no target definitions in " + topics.targets() + " (nothing to replay)");
        }
        List<String> problems = new ArrayList<>();
        if (targets != null) {
            for (String id : targets) {
                if (!specs.containsKey(id)) {
                    problems.add("--target: " + id + " (expected: a target defined in " + topics.targets()
                            + "; known: " + known(specs.keySet()) + ")");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new BadInputException("unknown target", problems);
        }
        TreeSet<String> selected = new TreeSet<>();
        specs.forEach((id, versions) -> {
            if (targets != null && !targets.isEmpty() && !targets.contains(id)) {
                return;
            }
            for (TargetSpec s : versions) {
                boolean groupOk = groups == null || groups.isEmpty() || groups.contains(s.group());
                boolean labelsOk = labels == null || labels.entrySet().stream()
                        .allMatch(l -> l.getValue().equals(s.labels().get(l.getKey())));
                if (groupOk && labelsOk) {
                    selected.add(id);
                    return;
                }
            }
        });
        if (selected.isEmpty()) {
            throw new BadInputException("no target matches the selection (" + selection() + ") in "
                    + topics.targets());
        }
        return selected;
    }

    private String selection() {
        List<String> parts = new ArrayList<>();
        if (groups != null) {
            groups.forEach(g -> parts.add("--group " + g));
        }
        if (labels != null) {
            labels.forEach((k, v) -> parts.add("--label " + k + "=" + v));
        }
        if (targets != null) {
            targets.forEach(t -> parts.add("--target " + t));
        }
        return String.join(" ", parts);
    }

    private static String known(java.util.Set<String> ids) {
        List<String> first = ids.stream().limit(10).toList();
        return String.join(", ", first) + (ids.size() > first.size() ? ", ... (" + ids.size() + " in all)" : "");
    }

    private static String describe(long ms) {
        return ms == Long.MIN_VALUE ? "the beginning" : Instant.ofEpochMilli(ms).toString();
    }
}
