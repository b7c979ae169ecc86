package io.healthmesh.cli.roles;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.StopSignal;
import io.healthmesh.cli.UntilStopped;
import io.healthmesh.cli.window.DurationConverter;
import io.healthmesh.ops.BuildInfo;
import io.healthmesh.ops.InvalidSettingsException;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.ops.Settings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The command of every worker role ({@link Roles#ALL}): settings from a properties file and {@code HEALTHMESH_*}
 * environment variables ({@link Settings#load}), a bad setting is exit 2 with every problem listed, then the worker
 * runs until SIGTERM/Ctrl-C (or {@code --duration}) and is closed before the JVM exits. This is also the one place
 * where a worker's bound listeners are announced on the endpoints topic ({@link ListenerAnnouncement}), withdrawn
 * before the worker closes. Each role logs which build it is ({@link BuildInfo#line()}) before it starts.
 */
@Command(mixinStandardHelpOptions = true)
final class RoleCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RoleCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Settings file (Java properties); HEALTHMESH_* environment variables override it.")
    Path config;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "Settings file, as an alternative to --config.")
    Path configArgument;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Stop after this long (e.g. 10m); default: until SIGTERM or Ctrl-C.")
    Duration duration;

    /** Environment used for settings; tests replace it. */
    Map<String, String> environment = System.getenv();

    private final Role<?> role;

    RoleCommand(Role<?> role) {
        this.role = role;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (config != null && configArgument != null) {
            throw new ParameterException(spec.commandLine(), "give the settings file once: --config FILE or FILE");
        }
        Map<String, String> settings;
        try {
            settings = Settings.load(config != null ? config : configArgument, environment);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        LOG.info("{} role starting: {}", spec.name(), BuildInfo.current().line());
        // installed before the worker starts: a SIGTERM during its start still closes it in order
        StopSignal signal = StopSignal.install(spec.name());
        Role.Running running;
        try {
            running = role.run(settings);
        } catch (InvalidSettingsException e) {
            signal.closed();
            // every role reads its settings through the same reader: all problems at once, one per line here
            throw new BadInputException("invalid " + spec.name() + " settings",
                    e.problems().stream().map(Redact::userInfo).toList());
        } catch (IllegalArgumentException e) {
            signal.closed();
            throw new BadInputException("invalid " + spec.name() + " settings", List.of(Redact.userInfo(e.getMessage())));
        } catch (RuntimeException e) {
            signal.closed();
            throw e;
        }
        AutoCloseable announced = ListenerAnnouncement.start(spec.name(), running.worker(), settings);
        PrintWriter out = spec.commandLine().getOut();
        out.println(running.line());
        out.flush();
        AutoCloseable worker = running.worker();
        AutoCloseable withdrawFirst = () -> {
            try {
                announced.close(); // the tombstone first, while the worker still runs
            } finally {
                worker.close();
            }
        };
        return UntilStopped.run(signal, withdrawFirst, duration, out, spec.name());
    }
}
