package io.healthmesh.cli.targets;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.KafkaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh targets delete ID...}: writes a tombstone per id. The aggregator then drops the target from its
 * group and tombstones its state. Unknown ids are an error unless {@code --ignore-missing}.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete targets (tombstones).")
public final class DeleteCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Parameters(arity = "1..*", paramLabel = "ID", description = "Target ids.")
    List<String> ids;

    @Option(names = "--ignore-missing", description = "Write tombstones even for ids that are not defined.")
    boolean ignoreMissing;

    @Override
    public Integer call() {
        TargetTopic topic = new TargetTopic(kafka);
        Set<String> known = topic.read().definitions().keySet();
        List<String> missing = ids.stream().filter(id -> !known.contains(id)).toList();
        if (!missing.isEmpty() && !ignoreMissing) {
            throw new BadInputException("unknown target(s); nothing was deleted",
                    missing.stream().map(id -> id + ": not in " + topic.name()).toList());
        }
        topic.delete(ids);
        PrintWriter out = spec.commandLine().getOut();
        ids.forEach(id -> out.printf("%-32s deleted%n", id));
        out.printf("deleted %d target(s) from %s%n", ids.size(), topic.name());
        out.flush();
        return 0;
    }
}
