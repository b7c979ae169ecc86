package io.healthmesh.cli;

import io.healthmesh.cli.demo.DemoCommand;
import io.healthmesh.cli.probe.ProbeCommand;
import io.healthmesh.cli.replay.ReplayCommand;
import io.healthmesh.cli.roles.Roles;
import io.healthmesh.cli.targets.TargetsCommand;
import io.healthmesh.cli.groups.GroupsCommand;
import io.healthmesh.cli.maint.MaintCommand;
import io.healthmesh.cli.watch.WatchCommand;
import io.healthmesh.cli.window.WindowCommand;
import io.healthmesh.ops.BuildInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The {@code healthmesh} command: the entry point of the runnable jar. Exit codes: 0 ok, 1 runtime failure,
 * 2 bad usage or bad input. Errors are one line; {@code --verbose} adds the stack trace.
 */
@Command(name = "healthmesh", mixinStandardHelpOptions = true, versionProvider = Healthmesh.Version.class,
        description = "A Kafka-native active health checker.",
        subcommands = {DemoCommand.class, TargetsCommand.class, GroupsCommand.class, MaintCommand.class,
                WatchCommand.class, WindowCommand.class, ReplayCommand.class, ProbeCommand.class,
                VersionCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:runtime failure", "2:bad usage or bad input"})
public final class Healthmesh implements Callable<Integer> {

    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces with errors.")
    boolean verbose;

    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.exit(code);
    }

    /** Runs the command line and returns the exit code; output goes to {@code out} and {@code err}. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return commandLine(out, err).execute(args);
    }

    /** The configured picocli command line (exposed for tests that need the parsed model). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new Healthmesh());
        Roles.addTo(cmd);
        cmd.addSubcommand(new CommandLine.HelpCommand());
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setExecutionExceptionHandler(Healthmesh::handle);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setParameterExceptionHandler(Healthmesh::badUsage);
        return cmd;
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
    }

    /** Bad usage: the message, picocli's suggestions for a mistyped name, then the usage of the command. */
    private static int badUsage(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("error: " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println();
        cmd.usage(err);
        err.flush();
        return BAD_INPUT;
    }

    private static int handle(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        boolean verbose = verbose(parseResult);
        if (ex instanceof BadInputException bad) {
            err.println("error: " + bad.getMessage());
            bad.problems().forEach(p -> err.println("  " + p));
            if (verbose) {
                bad.printStackTrace(err);
            }
            err.flush();
            return BAD_INPUT;
        }
        err.println("error: " + oneLine(ex));
        if (verbose) {
            ex.printStackTrace(err);
        } else {
            err.println("(run with --verbose for the stack trace)");
        }
        err.flush();
        return FAILURE;
    }

    /** The message of the exception, or of its innermost cause that has one, on one line. */
    static String oneLine(Throwable ex) {
        Throwable t = ex;
        String message = t.getMessage();
        while ((message == null || message.isBlank()) && t.getCause() != null) {
            t = t.getCause();
            message = t.getMessage();
        }
        if (message == null || message.isBlank()) {
            message = t.getClass().getSimpleName();
        }
        return message.lines().findFirst().orElse(message);
    }

    private static boolean verbose(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    /** The line printed by {@code --version}: the build's version, commit and time ({@code healthmesh version}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {BuildInfo.current().line()};
        }
    }
}
