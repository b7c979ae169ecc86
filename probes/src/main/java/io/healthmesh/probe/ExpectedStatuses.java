package io.healthmesh.probe;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statuses an HTTP probe accepts: classes such as {@code 2xx} and exact codes such as {@code 200}.
 * An empty list means {@code 2xx}.
 */
public final class ExpectedStatuses {

    /** Distinct lists of expected statuses kept parsed. */
    static final int CACHED = 256;
    private static final ExpectedStatuses DEFAULT = new ExpectedStatuses(List.of("2xx"));
    private static final Map<List<String>, ExpectedStatuses> PARSED = new ConcurrentHashMap<>();

    private final boolean[] classes = new boolean[6];
    private final boolean[] codes = new boolean[600];
    private final String text;

    private ExpectedStatuses(List<String> entries) {
        for (String entry : entries) {
            String e = entry == null ? "" : entry.trim().toLowerCase(java.util.Locale.ROOT);
            if (e.length() == 3 && e.endsWith("xx") && e.charAt(0) >= '1' && e.charAt(0) <= '5') {
                classes[e.charAt(0) - '0'] = true;
            } else if (e.length() == 3 && e.chars().allMatch(Character::isDigit)
                    && Integer.parseInt(e) >= 100 && Integer.parseInt(e) <= 599) {
                codes[Integer.parseInt(e)] = true;
            } else {
                throw new IllegalArgumentException("expectedStatuses: '" + entry + "' (expected: 1xx..5xx or 100..599)");
            }
        }
        this.text = String.join(",", entries);
    }

    /**
     * The statuses of {@code entries}. Parsed once per distinct list: every HTTP probe asks, and most targets share
     * a few lists; up to {@link #CACHED} lists are kept, any more are parsed each time. A definition holds at most
     * {@code Limits.MAX_EXPECTED_STATUSES} entries (DefinitionBounds), so what is kept stays small.
     *
     * @throws IllegalArgumentException for an entry that is neither a class nor a code
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

    public boolean matches(int status) {
        if (status < 100 || status > 599) {
            return false;
        }
        return codes[status] || classes[status / 100];
    }

    @Override
    public String toString() {
        return text;
    }
}
