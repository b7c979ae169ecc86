package io.healthmesh.bench;

import io.healthmesh.bench.syscalls.SyscallDriver;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The load harness's one entry point ({@code java -jar bench/target/bench.jar <subcommand>}): the load benchmark of
 * docs/BENCHMARKS.md and the smaller measurements beside it, each a subcommand with its own flags. The JMH benchmarks
 * are another module's jar ({@code bench-jmh/target/benchmarks.jar}). The worker JVMs the load benchmark starts have
 * their own entry point ({@link io.healthmesh.bench.run.WorkerMain}), which no one runs by hand.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = {
        LoadDriver.class, RestoreBench.class, HaproxyAlone.class, SyscallDriver.class, JfrHotMethods.class,
        TransactionCost.class, StatusBoardHeap.class, TargetsFile.class, IngestBench.class, SoakBench.class, ProberScaleBench.class, DecideBench.class,
        CommandLine.HelpCommand.class},
        description = "healthmesh's load harness: the load benchmark against a loopback target farm and the "
                + "measurements beside it.")
public final class Bench implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // a flag given twice takes its last value: a script's preset flags can be followed by overrides
        System.exit(new CommandLine(new Bench()).setOverwrittenOptionsAllowed(true).execute(args));
    }

    /** Without a subcommand: the usage, on standard error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is missing");
    }
}
