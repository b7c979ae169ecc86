package io.healthmesh.ops;

import java.util.List;

/**
 * Every problem of a role's settings at once, each in the form {@code key: value (expected: ...)}, so that one start
 * attempt tells the operator everything to fix.
 */
public final class InvalidSettingsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String role;
    private final List<String> problems;

    public InvalidSettingsException(String role, List<String> problems) {
        super("invalid " + role + " settings: " + String.join("; ", problems));
        this.role = role;
        this.problems = List.copyOf(problems);
    }

    /** The role whose settings these are, e.g. {@code prober}. */
    public String role() {
        return role;
    }

    /** Each problem, {@code key: value (expected: ...)}. */
    public List<String> problems() {
        return problems;
    }
}
