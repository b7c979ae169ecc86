package io.healthmesh.cli.targets;

import picocli.CommandLine.Command;

/** {@code healthmesh targets}: manage target definitions in the compacted targets topic. */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = "Apply, list, show and delete target definitions.",
        subcommands = {ApplyCommand.class, ListCommand.class, GetCommand.class, DeleteCommand.class})
public final class TargetsCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "Missing subcommand: apply, list, get or delete");
    }
}
