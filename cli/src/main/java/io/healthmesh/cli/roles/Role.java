package io.healthmesh.cli.roles;

import java.util.Map;
import java.util.function.Function;

/**
 * One worker role of the command line: its name, what {@code --help} says of it, how it starts from validated
 * settings and the line printed once it runs. Every role shares the same command ({@link RoleCommand}); what differs
 * between them is this row of {@link Roles#ALL}.
 *
 * @param name        the subcommand, e.g. {@code prober}
 * @param description one sentence for {@code --help}
 * @param settings    the main settings named in {@code --help}'s footer (all of them are in docs/CONFIGURATION.md)
 * @param start       starts the worker; throws {@code InvalidSettingsException} for bad settings
 * @param started     the line said once the worker runs, e.g. where its endpoints are
 * @param <W>         the worker type
 */
public record Role<W extends AutoCloseable>(String name, String description, String settings,
                                            Function<Map<String, String>, W> start, Function<W, String> started) {

    /** Starts the worker and returns it with its started line. */
    Running run(Map<String, String> settings) {
        W worker = start.apply(settings);
        return new Running(worker, started.apply(worker));
    }

    /** A started worker and the line that says so. */
    record Running(AutoCloseable worker, String line) { }
}
