package io.healthmesh.cli.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.probe.ProbeReport;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a traced probe for a person: the target, each step with the time it began and how long it lasted, the facts
 * the check learnt (the certificate, a bounded and escaped excerpt of what the target sent), the report's own
 * timings, and the verdict the prober would publish (outcome and detail).
 */
final class TraceText {

    private TraceText() {
    }

    static void target(PrintWriter out, TargetSpec spec, String egress) {
        StringBuilder what = new StringBuilder(spec.protocol().name()).append(' ')
                .append(spec.address()).append(':').append(spec.port());
        if (spec.protocol().name().startsWith("HTTP") && spec.http() != null) {
            what.append(", ").append(spec.http().method()).append(' ').append(spec.http().path());
        }
        out.printf(Locale.ROOT, "target %s (group %s): %s, timeout %d ms%n", spec.id(), spec.group(), what,
                spec.timeoutMs());
        if (spec.usesTls()) {
            out.printf(Locale.ROOT, "tls: %s%n", verification(spec));
        }
        out.printf(Locale.ROOT, "egress: %s%n%n", egress);
    }

    /** What the check does with the server's certificate, in the words of {@link TlsVerification}'s states. */
    static String verification(TargetSpec spec) {
        return switch (spec.tlsVerification()) {
            case VERIFIED -> "certificate verified against " + (spec.tls().trustId() == null
                    ? "the JDK's trust store" : "trust bundle " + spec.tls().trustId()) + ", name checked";
            case SKIPPED_BY_DEFINITION -> "certificate not verified (tls.insecureSkipVerify)";
            case OFF_UNDER_PROFILE -> "certificate not verified (profile " + spec.profile() + ", as its load balancer)";
            case OFF_BY_OLD_DEFAULT -> "certificate not verified (a stored definition of the old default)";
            case NO_TLS -> "none";
        };
    }

    static void trace(PrintWriter out, TraceLog trace, ProbeReport report) {
        List<TraceLog.Step> steps = trace.steps();
        for (int i = 0; i < steps.size(); i++) {
            TraceLog.Step step = steps.get(i);
            long until = i + 1 < steps.size() ? steps.get(i + 1).atMicros() : report.latencyMicros();
            String lasted = i + 1 < steps.size() ? String.format(Locale.ROOT, "  (%s)", ms(until - step.atMicros()))
                    : "";
            out.printf(Locale.ROOT, "%12s  %s%s%n", ms(step.atMicros()), escaped(step.what()), lasted);
        }
        if (trace.droppedSteps() > 0) {
            out.printf(Locale.ROOT, "%12s  (%d more steps not kept)%n", "", trace.droppedSteps());
        }
        for (Map.Entry<String, TraceLog.Fact> fact : trace.facts().entrySet()) {
            TraceLog.Fact f = fact.getValue();
            out.printf(Locale.ROOT, "%s: %s%s%n", fact.getKey(), escaped(f.text()),
                    f.truncated() ? " ... (" + f.text().length() + " of " + f.totalChars() + " characters)" : "");
        }
        out.printf(Locale.ROOT, "timings: %s%n", timings(report));
        out.printf(Locale.ROOT, "verdict: %s%s%n", report.outcome(),
                report.detail() == null ? "" : ": " + report.detail());
        if (report.outcome() == Outcome.BLOCKED_BY_POLICY) {
            out.println("(the prober's egress policy refused the address: --allow CIDR opens a block, as the"
                    + " prober's allow.list does)");
        }
    }

    /** The report's phases, as the prober publishes them. */
    static String timings(ProbeReport report) {
        StringBuilder text = new StringBuilder();
        if (report.connectMicros() != null) {
            text.append("connect ").append(ms(report.connectMicros())).append(", ");
        }
        if (report.tlsMicros() != null) {
            text.append("TLS ").append(ms(report.tlsMicros())).append(", ");
        }
        if (report.firstByteMicros() != null) {
            text.append("first byte ").append(ms(report.firstByteMicros())).append(", ");
        }
        if (report.httpStatus() != null) {
            text.append("status ").append(report.httpStatus()).append(", ");
        }
        text.append("total ").append(ms(report.latencyMicros()));
        if (report.bytesRead() > 0) {
            text.append(", ").append(report.bytesRead()).append(" bytes read");
        }
        return text.toString();
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1000.0);
    }

    /** One line: line breaks and other control characters written as escapes. */
    static String escaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
