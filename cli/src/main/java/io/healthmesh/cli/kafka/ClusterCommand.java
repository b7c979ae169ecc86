package io.healthmesh.cli.kafka;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A subcommand that talks to a cluster ({@code targets}, {@code groups}, {@code maint}, {@code watch},
 * {@code replay}): the cluster options every one of them takes, and the command's own output.
 */
public abstract class ClusterCommand implements Callable<Integer> {

    @Spec
    protected CommandSpec spec;

    @Mixin
    protected KafkaOptions kafka;

    /** Where the command prints its result (picocli's, so tests can capture it). */
    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
