package io.healthmesh.cli.maint;

import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh maint list}: every window the topic holds, by start, with its state now (scheduled, active or
 * ended: an ended window stays listed until {@code maint end} deletes its record).
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List maintenance windows.")
public final class MaintListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        MaintenanceTopic topic = new MaintenanceTopic(kafka);
        MaintenanceTopic.Contents contents = topic.read();
        long now = System.currentTimeMillis();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-24s %-8s %-10s %-24s %-24s %-32s %s%n", "ID", "MODE", "STATE", "START", "END", "SELECTOR",
                "REASON");
        List<MaintenanceWindow> windows = contents.windows().values().stream()
                .sorted(Comparator.comparingLong(MaintenanceWindow::startMs).thenComparing(MaintenanceWindow::id))
                .toList();
        for (MaintenanceWindow w : windows) {
            String state = w.inForceAt(now) ? "active" : now < w.startMs() ? "scheduled" : "ended";
            out.printf("%-24s %-8s %-10s %-24s %-24s %-32s %s%n", w.id(), w.mode(), state,
                    Instant.ofEpochMilli(w.startMs()), Instant.ofEpochMilli(w.endMs()), w.selector(), w.reason());
        }
        contents.undecodable().forEach(u -> out.println("undecodable: " + u));
        out.printf("%d window(s) in %s%n", windows.size(), topic.name());
        out.flush();
        return 0;
    }
}
