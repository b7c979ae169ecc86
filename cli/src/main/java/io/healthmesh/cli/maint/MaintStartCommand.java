package io.healthmesh.cli.maint;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceRules;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code healthmesh maint start}: writes a window starting now (or at {@code --at}) for {@code --for}, selecting
 * targets by
 * {@code --target}, {@code --group} or {@code --label} (exactly one kind; labels may repeat and must all match),
 * SILENCE unless {@code --drain}; prints its id. Every problem of the input is reported at once (exit code 2).
 */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Start a maintenance window now, or plan one with --at; prints its id.")
public final class MaintStartCommand extends ClusterCommand {

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
            .withZone(ZoneOffset.UTC);
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Option(names = "--target", paramLabel = "ID", description = "One target.")
    String target;

    @Option(names = "--group", paramLabel = "GROUP", description = "Every member of a group (also those joining it).")
    String group;

    @Option(names = "--label", paramLabel = "KEY=VALUE",
            description = "Targets carrying this label (repeat: every label must match).")
    List<String> labels = new ArrayList<>();

    @Option(names = "--for", paramLabel = "LENGTH", required = true,
            description = "How long, from its start: 30m, 2h, 1h30m, 1d (1 minute to 30 days).")
    String length;

    @Option(names = "--at", paramLabel = "TIME",
            description = "When it starts (default: now): an instant with its offset, 2026-12-24T22:00:00Z or "
                    + "2026-12-24T23:00+01:00, or +LENGTH from now (+2h). At most 366 days ahead.")
    String at;

    @Option(names = "--drain", description = "Drain: load balancers stop sending new work (default: silence alerts only).")
    boolean drain;

    @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why (1 to 500 characters).")
    String reason;

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        Duration forLength = null;
        try {
            forLength = WindowLength.parse(length);
            problems.addAll(MaintenanceRules.lengthViolations(forLength));
        } catch (BadInputException e) {
            problems.add(e.getMessage());
        }
        MaintenanceSelector selector = selector(problems);
        long now = System.currentTimeMillis();
        long start = start(now, problems);
        if (!problems.isEmpty()) {
            throw new BadInputException("no maintenance window was started", problems);
        }
        MaintenanceWindow w = new MaintenanceWindow(newId(start), selector,
                drain ? MaintenanceMode.DRAIN : MaintenanceMode.SILENCE, start, start + forLength.toMillis(), reason,
                now, System.getProperty("user.name"));
        List<String> violations = MaintenanceRules.violations(w);
        if (!violations.isEmpty()) {
            throw new BadInputException("no maintenance window was started", violations);
        }
        MaintenanceTopic topic = new MaintenanceTopic(kafka);
        topic.write(w);
        PrintWriter out = out();
        out.println(w.id());
        out.flush();
        return 0;
    }

    /** The start: now, or {@code --at} (an instant with an offset, or {@code +LENGTH}), checked against now. */
    private long start(long now, List<String> problems) {
        if (at == null) {
            return now;
        }
        long start;
        try {
            start = at.startsWith("+") ? now + WindowLength.parse(at.substring(1)).toMillis()
                    : OffsetDateTime.parse(at).toInstant().toEpochMilli();
        } catch (BadInputException | DateTimeParseException | ArithmeticException e) {
            problems.add("--at: " + at + " (expected: an instant with its offset, e.g. 2026-12-24T22:00:00Z, or "
                    + "+LENGTH, e.g. +2h)");
            return now;
        }
        problems.addAll(MaintenanceRules.startViolations(start, now));
        return start;
    }

    private MaintenanceSelector selector(List<String> problems) {
        int kinds = (target != null ? 1 : 0) + (group != null ? 1 : 0) + (labels.isEmpty() ? 0 : 1);
        if (kinds != 1) {
            problems.add("selector: " + (kinds == 0 ? "none" : "several kinds")
                    + " (expected: exactly one of --target, --group, --label)");
            return null;
        }
        if (target != null) {
            return MaintenanceSelector.target(target);
        }
        if (group != null) {
            return MaintenanceSelector.group(group);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String label : labels) {
            int eq = label.indexOf('=');
            if (eq <= 0) {
                problems.add("--label: " + label + " (expected: KEY=VALUE)");
            } else if (map.put(label.substring(0, eq), label.substring(eq + 1)) != null) {
                problems.add("--label: " + label.substring(0, eq) + " given twice (expected: each key once)");
            }
        }
        return MaintenanceSelector.labels(map);
    }

    /** {@code m-<UTC start>-<4 random characters>}: sorts by start, unique enough for people to type. */
    static String newId(long startMs) {
        StringBuilder id = new StringBuilder("m-").append(ID_TIME.format(Instant.ofEpochMilli(startMs)).toLowerCase())
                .append('-');
        for (int i = 0; i < 4; i++) {
            id.append(ID_CHARS.charAt(RANDOM.nextInt(ID_CHARS.length())));
        }
        return id.toString();
    }
}
