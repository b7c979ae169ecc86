package io.healthmesh.cli.watch;

import io.healthmesh.cli.StopSignal;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetHealth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code healthmesh watch}: the current state first, then every change as it happens, one line each.
 * Runs until Ctrl-C (or {@code --duration}).
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Print the current target and group state, then every change as it happens.")
public final class WatchCommand extends ClusterCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "Only this group and its targets (repeatable).")
    List<String> groups;

    @Option(names = "--target", paramLabel = "ID", description = "Only this target (repeatable).")
    List<String> targets;

    @Option(names = "--json", description = "One JSON object per line instead of text.")
    boolean json;

    @Option(names = "--duration", paramLabel = "DURATION", converter = io.healthmesh.cli.window.DurationConverter.class,
            description = "Stop after this long (e.g. 30s, 5m); default: until Ctrl-C.")
    Duration duration;

    @Override
    public Integer call() {
        PrintWriter out = out();
        StateLines lines = new StateLines(Clock.systemDefaultZone(), json);
        Predicate<StateEvent> shown = filter(groups, targets);
        StateFeed feed = new StateFeed(kafka.clientProperties(), kafka.serdeConfig(), kafka.topics());
        // Ctrl-C, SIGTERM or StopSignal.stop: close the feed, which ends its run below
        StopSignal signal = StopSignal.install("watch");
        Thread stopper = new Thread(() -> {
            try {
                signal.await(null);
                feed.close();
            } catch (InterruptedException ended) {
                // the watch ended on its own
            }
        }, "healthmesh-watch-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            feed.run(event -> {
                if (shown.test(event)) {
                    String line = lines.render(event);
                    if (line != null) {
                        out.println(line);
                        out.flush();
                    }
                }
            }, duration == null ? null : Instant.now().plus(duration));
        } finally {
            stopper.interrupt();
            signal.closed();
        }
        return 0;
    }

    /** Which events pass {@code --group} and {@code --target}; with only {@code --target}, group lines are hidden. */
    static Predicate<StateEvent> filter(List<String> groups, List<String> targets) {
        boolean anyGroup = groups == null || groups.isEmpty();
        boolean anyTarget = targets == null || targets.isEmpty();
        return event -> {
            if (event instanceof StateEvent.Target t) {
                TargetHealth h = t.health();
                return (anyGroup || groups.contains(h.getGroup())) && (anyTarget || targets.contains(h.getTargetId()));
            }
            if (event instanceof StateEvent.Group g) {
                GroupHealth h = g.health();
                return anyTarget && (anyGroup || groups.contains(h.getGroupId()));
            }
            if (event instanceof StateEvent.Removed r) {
                return r.kind() == StateEvent.Kind.TARGET ? anyTarget || targets.contains(r.id())
                        : anyTarget && (anyGroup || groups.contains(r.id()));
            }
            return true;
        };
    }
}
