package io.healthmesh.cli.probe;

import io.healthmesh.probe.ProbeTrace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one traced probe did: its steps in order and its facts by name, each name's values joined. Bounded: at most
 * {@value #MAX_STEPS} steps, and each fact at most {@code maxFactChars} characters (the rest is counted, not kept).
 * Written on the probe's event loop, read by the command once the report is in: every method is synchronized.
 */
final class TraceLog implements ProbeTrace {

    static final int MAX_STEPS = 200;

    /** One step: what began or happened, and when after the probe's start. */
    record Step(long atMicros, String what) {
    }

    /** A fact's text as far as kept, and how many characters it had in all. */
    record Fact(String text, long totalChars) {

        boolean truncated() {
            return totalChars > text.length();
        }
    }

    private final int maxFactChars;
    private final List<Step> steps = new ArrayList<>();
    private final Map<String, StringBuilder> facts = new LinkedHashMap<>();
    private final Map<String, Long> factTotals = new LinkedHashMap<>();
    private int droppedSteps;

    TraceLog(int maxFactChars) {
        this.maxFactChars = maxFactChars;
    }

    @Override
    public synchronized void step(long atMicros, String what) {
        if (steps.size() < MAX_STEPS) {
            steps.add(new Step(atMicros, what));
        } else {
            droppedSteps++;
        }
    }

    @Override
    public synchronized void fact(String name, String value) {
        StringBuilder kept = facts.computeIfAbsent(name, n -> new StringBuilder());
        int room = maxFactChars - kept.length();
        if (room > 0) {
            kept.append(value, 0, Math.min(room, value.length()));
        }
        factTotals.merge(name, (long) value.length(), Long::sum);
    }

    synchronized List<Step> steps() {
        return List.copyOf(steps);
    }

    synchronized int droppedSteps() {
        return droppedSteps;
    }

    synchronized Map<String, Fact> facts() {
        Map<String, Fact> out = new LinkedHashMap<>();
        facts.forEach((name, text) -> out.put(name, new Fact(text.toString(), factTotals.get(name))));
        return out;
    }
}
