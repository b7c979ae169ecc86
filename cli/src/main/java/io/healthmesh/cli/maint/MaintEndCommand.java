package io.healthmesh.cli.maint;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.ClusterCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code healthmesh maint end ID}: ends a window now by deleting its record (a tombstone); the aggregator emits an
 * event for every target it covered. An unknown id is an error (exit code 2).
 */
@Command(name = "end", mixinStandardHelpOptions = true, description = "End a maintenance window now.")
public final class MaintEndCommand extends ClusterCommand {

    @Parameters(index = "0", paramLabel = "ID", description = "The id `maint start` printed.")
    String id;

    @Override
    public Integer call() {
        MaintenanceTopic topic = new MaintenanceTopic(kafka);
        if (!topic.read().values().containsKey(id)) {
            throw new BadInputException("unknown maintenance window; nothing was ended",
                    List.of(id + ": not in " + topic.name() + " (see `healthmesh maint list`)"));
        }
        topic.end(id);
        PrintWriter out = out();
        out.println(id + " ended");
        out.flush();
        return 0;
    }
}
