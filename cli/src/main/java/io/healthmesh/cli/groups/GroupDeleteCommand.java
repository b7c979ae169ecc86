package io.healthmesh.cli.groups;

import io.healthmesh.cli.kafka.ClusterCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code healthmesh groups delete GROUP...}: writes a tombstone per group; each group then fails open only when no
 * member is HEALTHY or DISABLED. Groups without a policy are an error unless {@code --ignore-missing}.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete group policies (tombstones).")
public final class GroupDeleteCommand extends ClusterCommand {

    @Parameters(arity = "1..*", paramLabel = "GROUP", description = "Group ids.")
    List<String> groups;

    @Option(names = "--ignore-missing", description = "Write tombstones even for groups without a policy.")
    boolean ignoreMissing;

    @Override
    public Integer call() {
        GroupPolicyTopic.of(kafka).delete(groups, ignoreMissing, "group(s) without a policy");
        PrintWriter out = out();
        groups.forEach(g -> out.printf("%-32s policy deleted%n", g));
        out.flush();
        return 0;
    }
}
