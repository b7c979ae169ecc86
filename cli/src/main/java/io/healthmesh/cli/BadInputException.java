package io.healthmesh.cli;

import java.util.List;

/**
 * The user's input is wrong (a file, a flag value, a missing target): exit code 2. Carries every problem, one per
 * line, so that a single run shows all of them.
 */
public final class BadInputException extends RuntimeException {

    private final List<String> problems;

    public BadInputException(String summary, List<String> problems) {
        super(summary);
        this.problems = List.copyOf(problems);
    }

    public BadInputException(String message) {
        this(message, List.of());
    }

    /** The individual problems, printed after the summary. */
    public List<String> problems() {
        return problems;
    }
}
