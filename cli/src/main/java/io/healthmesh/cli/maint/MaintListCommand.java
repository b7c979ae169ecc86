package io.healthmesh.cli.maint;

import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * {@code healthmesh maint list}: every window the topic holds, by start, with its state now (scheduled, active or
 * ended: an ended window stays listed until {@code maint end} deletes its record).
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List maintenance windows.")
public final class MaintListCommand extends ClusterCommand {

    @Override
    public Integer call() {
        MaintenanceTopic topic = new MaintenanceTopic(kafka);
        CompactedTopic.Contents<MaintenanceWindow> contents = topic.read();
        long now = System.currentTimeMillis();
        PrintWriter out = out();
        out.printf("%-24s %-8s %-10s %-24s %-24s %-32s %s%n", "ID", "MODE", "STATE", "START", "END", "SELECTOR",
                "REASON");
        List<MaintenanceWindow> windows = contents.values().values().stream()
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
