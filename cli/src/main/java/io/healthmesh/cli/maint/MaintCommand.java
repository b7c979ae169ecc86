package io.healthmesh.cli.maint;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code healthmesh maint}: maintenance windows (drain or silence targets for planned work). */
@Command(name = "maint", mixinStandardHelpOptions = true,
        description = "Start, list and end maintenance windows (DRAIN or SILENCE).",
        subcommands = {MaintStartCommand.class, MaintListCommand.class, MaintEndCommand.class})
public final class MaintCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: start, list or end");
    }
}
