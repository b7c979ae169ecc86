package io.healthmesh.cli.targets;

import io.healthmesh.cli.kafka.ClusterCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code healthmesh targets delete ID...}: writes a tombstone per id. The aggregator then drops the target from its
 * group and tombstones its state. Unknown ids are an error unless {@code --ignore-missing}.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete targets (tombstones).")
public final class DeleteCommand extends ClusterCommand {

    @Parameters(arity = "1..*", paramLabel = "ID", description = "Target ids.")
    List<String> ids;

    @Option(names = "--ignore-missing", description = "Write tombstones even for ids that are not defined.")
    boolean ignoreMissing;

    @Override
    public Integer call() {
        TargetTopic topic = new TargetTopic(kafka);
        topic.delete(ids, ignoreMissing);
        PrintWriter out = out();
        ids.forEach(id -> out.printf("%-32s deleted%n", id));
        out.printf("deleted %d target(s) from %s%n", ids.size(), topic.name());
        out.flush();
        return 0;
    }
}
