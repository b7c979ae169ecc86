package io.healthmesh.cli.groups;

import picocli.CommandLine.Command;

/** {@code healthmesh groups}: manage group policies (the panic threshold) in the compacted groups topic. */
@Command(name = "groups", mixinStandardHelpOptions = true,
        description = "Set, list and delete group policies (panic threshold: fail open below a share or a count).",
        subcommands = {GroupSetCommand.class, GroupListCommand.class, GroupDeleteCommand.class})
public final class GroupsCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: set, list or delete");
    }
}
