package io.healthmesh.core.target;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP statuses a target accepts ({@code http.expectedStatuses}, BEHAVIOUR.md section 4): classes {@code 1xx} to
 * {@code 5xx} (the {@code x} in either case) and exact codes {@code 100} to {@code 599}; an empty list means
 * {@code 2xx}. This is the one place the syntax is stated: {@link TargetValidator} and the profile rules check entries
 * with it, and the HTTP probes judge a response with {@link #matches}.
 */
public final class ExpectedStatuses {

    /** What an entry may be, as violation messages say it. */
    static final String SYNTAX = "1xx..5xx or a code 100..599";
    /** Distinct lists kept parsed. */
    static final int CACHED = 256;

    private static final ExpectedStatuses DEFAULT = new ExpectedStatuses(List.of("2xx"));
    private static final Map<List<String>, ExpectedStatuses> PARSED = new ConcurrentHashMap<>();

    private final boolean[] classes = new boolean[6];
    private final boolean[] codes = new boolean[600];
    private final String text;

    private ExpectedStatuses(List<String> entries) {
        for (String entry : entries) {
            if (isClass(entry)) {
                classes[entry.charAt(0) - '0'] = true;
            } else if (isCode(entry)) {
                codes[Integer.parseInt(entry)] = true;
            } else {
                throw new IllegalArgumentException(Violation.of("http.expectedStatuses",
                        entry == null ? "null" : "\"" + Texts.shortened(entry) + "\"", SYNTAX).toString());
            }
        }
        this.text = String.join(",", entries);
    }

    /**
     * The statuses of {@code entries} ({@code null} or empty: {@code 2xx}). Parsed once per distinct list: every HTTP
     * probe asks, and most targets share a few lists; up to {@link #CACHED} lists are kept, any more are parsed each
     * time. A definition holds at most {@link Limits#MAX_EXPECTED_STATUSES} entries, so what is kept stays small.
     *
     * @throws IllegalArgumentException for an entry that is neither a class nor a code, e.g.
     *     {@code http.expectedStatuses: "2x" (expected: 1xx..5xx or a code 100..599)}
     */
    public static ExpectedStatuses parse(List<String> entries) {
        if (entries == null || entries.isEmpty()) {
            return DEFAULT;
        }
        ExpectedStatuses known = PARSED.get(entries);
        if (known != null) {
            return known;
        }
        ExpectedStatuses parsed = new ExpectedStatuses(entries);
        if (PARSED.size() < CACHED) {
            PARSED.putIfAbsent(List.copyOf(entries), parsed);
        }
        return parsed;
    }

    /** True when {@code entry} is a class or a code. */
    static boolean isEntry(String entry) {
        return isClass(entry) || isCode(entry);
    }

    /** True when {@code entry} is a class {@code 1xx..5xx}. */
    static boolean isClass(String entry) {
        return entry != null && entry.length() == 3 && leadsAStatus(entry.charAt(0)) && isX(entry.charAt(1))
                && isX(entry.charAt(2));
    }

    private static boolean isCode(String entry) {
        return entry != null && entry.length() == 3 && leadsAStatus(entry.charAt(0)) && isDigit(entry.charAt(1))
                && isDigit(entry.charAt(2));
    }

    private static boolean leadsAStatus(char c) {
        return c >= '1' && c <= '5';
    }

    private static boolean isX(char c) {
        return c == 'x' || c == 'X';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** True when a response with this status passes. */
    public boolean matches(int status) {
        if (status < 100 || status > 599) {
            return false;
        }
        return codes[status] || classes[status / 100];
    }

    /** The entries as given, comma-separated. */
    @Override
    public String toString() {
        return text;
    }
}
