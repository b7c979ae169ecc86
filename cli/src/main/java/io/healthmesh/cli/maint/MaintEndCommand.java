package io.healthmesh.cli.maint;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.KafkaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh maint end ID}: ends a window now by deleting its record (a tombstone); the aggregator emits an
 * event for every target it covered. An unknown id is an error (exit code 2).
 */
@Command(name = "end", mixinStandardHelpOptions = true, description = "End a maintenance window now.")
public final class MaintEndCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Parameters(index = "0", paramLabel = "ID", description = "The id `maint start` printed.")
    String id;

    @Override
    public Integer call() {
        MaintenanceTopic topic = new MaintenanceTopic(kafka);
        if (!topic.read().windows().containsKey(id)) {
            throw new BadInputException("unknown maintenance window; nothing was ended",
                    List.of(id + ": not in " + topic.name() + " (see `healthmesh maint list`)"));
        }
        topic.end(id);
        PrintWriter out = spec.commandLine().getOut();
        out.println(id + " ended");
        out.flush();
        return 0;
    }
}
