package io.healthmesh.core.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The bounds of a maintenance window, in one place: the CLI checks them before it writes a record and the aggregator
 * again when it reads one (a record that breaks them is rejected with its bytes and changes nothing).
 */
public final class MaintenanceRules {

    /** Longest id: the CLI makes 22-character ids; other writers may choose their own within this. */
    public static final int MAX_ID_LENGTH = 64;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_ID_LENGTH + "}");
    /** Longest target id or group id in a selector (a target definition's own bound). */
    public static final int MAX_SELECTOR_ID_LENGTH = 255;
    /** Most labels a label selector may require. */
    public static final int MAX_LABELS = 16;
    public static final int MAX_LABEL_KEY_LENGTH = 63;
    public static final int MAX_LABEL_VALUE_LENGTH = 255;
    /** Longest reason, in characters. */
    public static final int MAX_REASON_LENGTH = 500;
    /** Shortest window. */
    public static final Duration MIN_WINDOW = Duration.ofMinutes(1);
    /** Longest window: planned work, not a way to switch a target off (that is {@code enabled: false}). */
    public static final Duration MAX_WINDOW = Duration.ofDays(30);
    /** Latest instant a window may name: every long of the contract is exact in a JavaScript number. */
    public static final long MAX_EPOCH_MS = (1L << 53) - 1;
    /** How far ahead a person may plan a window: further is more likely a typo in the year than a plan. */
    public static final Duration MAX_LEAD = Duration.ofDays(366);
    /** How far in the past a typed start may lie (a clock a little behind, a command typed at the minute). */
    public static final Duration START_SKEW = Duration.ofMinutes(1);
    /** Most windows an aggregator holds; a record past it is rejected (a window is matched, never fanned out). */
    public static final int MAX_WINDOWS = 10_000;

    private MaintenanceRules() {
    }

    /** What is wrong with {@code w}, each as {@code field: value (expected: ...)}; empty when it may be used. */
    public static List<String> violations(MaintenanceWindow w) {
        List<String> out = new ArrayList<>();
        if (!ID.matcher(w.id()).matches()) {
            out.add("id: " + show(w.id()) + " (expected: 1.." + MAX_ID_LENGTH + " of A-Z a-z 0-9 . _ -)");
        }
        selector(out, w.selector());
        if (w.reason().isBlank() || w.reason().length() > MAX_REASON_LENGTH
                || w.reason().chars().anyMatch(Character::isISOControl)) {
            out.add("reason: " + show(w.reason()) + " (expected: 1.." + MAX_REASON_LENGTH
                    + " characters, not blank, no control characters)");
        }
        long length = w.endMs() - w.startMs();
        if (w.startMs() < 0 || w.endMs() < 0 || w.endMs() > MAX_EPOCH_MS || w.createdAtMs() < 0
                || w.createdAtMs() > MAX_EPOCH_MS) {
            out.add("startMs/endMs/createdAtMs: " + w.startMs() + "/" + w.endMs() + "/" + w.createdAtMs()
                    + " (expected: epoch ms, 0.." + MAX_EPOCH_MS + ")");
        } else if (length < MIN_WINDOW.toMillis() || length > MAX_WINDOW.toMillis()) {
            out.add("endMs - startMs: " + length + " ms (expected: " + MIN_WINDOW.toMillis() + ".."
                    + MAX_WINDOW.toMillis() + ")");
        }
        if (w.createdBy() != null && (w.createdBy().length() > MAX_SELECTOR_ID_LENGTH
                || w.createdBy().chars().anyMatch(Character::isISOControl))) {
            out.add("createdBy: " + show(w.createdBy()) + " (expected: at most " + MAX_SELECTOR_ID_LENGTH
                    + " characters, no control characters)");
        }
        return out;
    }

    /** The violations of a window's length alone, for a duration a user typed ({@code --for}). */
    public static List<String> lengthViolations(Duration length) {
        if (length.compareTo(MIN_WINDOW) < 0 || length.compareTo(MAX_WINDOW) > 0) {
            return List.of("--for: " + length + " (expected: " + MIN_WINDOW.toMinutes() + " minute to "
                    + MAX_WINDOW.toDays() + " days)");
        }
        return List.of();
    }

    /**
     * The violations of a start a user typed ({@code --at}), against the writer's clock: not more than
     * {@link #START_SKEW} in the past (a window is matched when events are produced, so a start in the past changes
     * no event already written; say the time it should start instead), at most {@link #MAX_LEAD} ahead.
     */
    public static List<String> startViolations(long startMs, long nowMs) {
        if (startMs < nowMs - START_SKEW.toMillis()) {
            return List.of("--at: " + Instant.ofEpochMilli(startMs) + " is in the past (expected: now or "
                    + "later; events already written keep the window they had)");
        }
        if (startMs > nowMs + MAX_LEAD.toMillis()) {
            return List.of("--at: " + Instant.ofEpochMilli(startMs) + " (expected: at most "
                    + MAX_LEAD.toDays() + " days ahead)");
        }
        return List.of();
    }

    private static void selector(List<String> out, MaintenanceSelector s) {
        int kinds = (s.targetId() != null ? 1 : 0) + (s.group() != null ? 1 : 0) + (s.labels().isEmpty() ? 0 : 1);
        if (kinds != 1) {
            out.add("selector: " + kinds + " kinds (expected: exactly one of targetId, group, labels)");
            return;
        }
        if (s.targetId() != null) {
            idLike(out, "selector.targetId", s.targetId());
        } else if (s.group() != null) {
            idLike(out, "selector.group", s.group());
        } else if (s.labels().size() > MAX_LABELS) {
            out.add("selector.labels: " + s.labels().size() + " labels (expected: at most " + MAX_LABELS + ")");
        } else {
            for (Map.Entry<String, String> e : s.labels().entrySet()) {
                String key = e.getKey();
                if (key.isEmpty() || key.length() > MAX_LABEL_KEY_LENGTH || key.chars().anyMatch(Character::isISOControl)
                        || key.indexOf('=') >= 0 || key.indexOf(',') >= 0) {
                    out.add("selector.labels: key " + show(key) + " (expected: 1.." + MAX_LABEL_KEY_LENGTH
                            + " characters, no '=', ',' or control characters)");
                }
                String value = e.getValue();
                if (value.length() > MAX_LABEL_VALUE_LENGTH || value.chars().anyMatch(Character::isISOControl)) {
                    out.add("selector.labels[" + show(key) + "]: " + show(value) + " (expected: at most "
                            + MAX_LABEL_VALUE_LENGTH + " characters, no control characters)");
                }
            }
        }
    }

    private static void idLike(List<String> out, String field, String value) {
        if (value.isEmpty() || value.length() > MAX_SELECTOR_ID_LENGTH
                || value.chars().anyMatch(Character::isISOControl)) {
            out.add(field + ": " + show(value) + " (expected: 1.." + MAX_SELECTOR_ID_LENGTH
                    + " characters, no control characters)");
        }
    }

    private static String show(String s) {
        if (s == null) {
            return "null";
        }
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return '"' + cut.replaceAll("\\p{Cntrl}", "?") + '"';
    }
}
