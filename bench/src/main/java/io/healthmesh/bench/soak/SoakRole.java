package io.healthmesh.bench.soak;

/** The two roles a soak runs as processes of their own, by their {@code healthmesh} command name. */
public enum SoakRole {
    PROBER("prober"),
    AGGREGATOR("aggregator");

    private final String command;

    SoakRole(String command) {
        this.command = command;
    }

    /** The {@code healthmesh} subcommand, also the CSV column prefix. */
    public String command() {
        return command;
    }
}
