package io.healthmesh.cli;

import io.healthmesh.ops.BuildInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh version}: the version, git commit and build time of this build ({@link BuildInfo}), as text
 * or, with {@code --json}, one JSON object for scripts that check what an upgrade rolled out.
 */
@Command(name = "version", mixinStandardHelpOptions = true,
        description = "Print the version, the git commit and the build time of this build.")
public final class VersionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "One JSON object: {\"version\":...,\"commit\":...,\"built\":...}.")
    boolean json;

    @Override
    public Integer call() {
        BuildInfo build = BuildInfo.current();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            // the three values are written by the build: version, hex commit id, ISO time; nothing to escape
            out.println("{\"version\":\"" + build.version() + "\",\"commit\":\"" + build.commit()
                    + "\",\"built\":\"" + build.builtAt() + "\"}");
        } else {
            out.println("healthmesh " + build.version());
            out.println("commit     " + build.commit());
            out.println("built      " + build.builtAt());
        }
        out.flush();
        return Healthmesh.OK;
    }
}
