package io.healthmesh.cli.groups;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.KafkaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh groups delete GROUP...}: writes a tombstone per group; each group then fails open only when no
 * member is HEALTHY or DISABLED. Groups without a policy are an error unless {@code --ignore-missing}.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete group policies (tombstones).")
public final class GroupDeleteCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Parameters(arity = "1..*", paramLabel = "GROUP", description = "Group ids.")
    List<String> groups;

    @Option(names = "--ignore-missing", description = "Write tombstones even for groups without a policy.")
    boolean ignoreMissing;

    @Override
    public Integer call() {
        GroupPolicyTopic topic = new GroupPolicyTopic(kafka);
        Set<String> known = topic.read().policies().keySet();
        List<String> missing = groups.stream().filter(g -> !known.contains(g)).toList();
        if (!missing.isEmpty() && !ignoreMissing) {
            throw new BadInputException("group(s) without a policy; nothing was deleted",
                    missing.stream().map(g -> g + ": not in " + topic.name()).toList());
        }
        Map<String, io.healthmesh.schema.GroupPolicy> tombstones = new LinkedHashMap<>();
        groups.forEach(g -> tombstones.put(g, null));
        topic.send(tombstones);
        PrintWriter out = spec.commandLine().getOut();
        groups.forEach(g -> out.printf("%-32s policy deleted%n", g));
        out.flush();
        return 0;
    }
}
