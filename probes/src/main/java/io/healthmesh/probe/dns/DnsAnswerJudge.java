package io.healthmesh.probe.dns;

import com.google.re2j.Pattern;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DnsRules;
import io.healthmesh.core.target.DnsSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one verdict of a DNS check: the response code must be the expected one; then, when set, the answers of the
 * asked type must be exactly {@code expectedAnswers} (as a set; names compared without regard to case) and each must
 * fully match one of {@code answerPatterns}. A mismatch is {@code UNEXPECTED_RESPONSE} whose detail names what
 * differed and shows a short excerpt of the answers, control characters escaped: answers are data the user asked
 * for, but a detail stays a line.
 */
public final class DnsAnswerJudge {

    private static final int SHOWN_ANSWERS = 3;
    private static final int SHOWN_CHARS = 40;

    private final DnsSpec spec;
    private final Set<String> expected;
    private final List<Pattern> patterns;

    /** {@code spec} must be valid (its patterns compile). */
    public DnsAnswerJudge(DnsSpec spec) {
        this.spec = spec;
        this.expected = spec.expectedAnswers().stream().map(DnsAnswerJudge::canonical)
                .collect(Collectors.toUnmodifiableSet());
        this.patterns = spec.answerPatterns().stream().map(DnsRules::compile).toList();
    }

    /** The verdict on {@code reply}: an outcome and its detail. */
    public Verdict judge(DnsReply reply) {
        String via = reply.overTcp() ? " (over TCP)" : "";
        if (!spec.expectedRcode().equals(reply.rcode())) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "rcode " + reply.rcode() + " (expected "
                    + spec.expectedRcode() + ")" + via);
        }
        if (!expected.isEmpty()) {
            Set<String> got = new HashSet<>();
            reply.answers().forEach(a -> got.add(canonical(a)));
            if (!got.equals(expected)) {
                return new Verdict(Outcome.UNEXPECTED_RESPONSE, "answers " + excerpt(reply.answers())
                        + " (expected exactly " + excerpt(spec.expectedAnswers()) + ")" + via);
            }
        }
        if (!patterns.isEmpty()) {
            if (reply.answers().isEmpty()) {
                return new Verdict(Outcome.UNEXPECTED_RESPONSE, "no " + spec.type() + " answer (expected answers "
                        + "matching answerPatterns)" + via);
            }
            for (String answer : reply.answers()) {
                if (patterns.stream().noneMatch(p -> p.matches(answer))) {
                    return new Verdict(Outcome.UNEXPECTED_RESPONSE, "answer " + excerpt(List.of(answer))
                            + " matches no answerPattern" + via);
                }
            }
        }
        return new Verdict(Outcome.SUCCESS, reply.rcode() + ", " + reply.answers().size() + " " + spec.type()
                + (reply.answers().size() == 1 ? " answer" : " answers") + via);
    }

    /** An outcome and its detail. */
    public record Verdict(Outcome outcome, String detail) {
    }

    /** Names are compared without regard to case, with or without their final dot. */
    private static String canonical(String answer) {
        String lower = answer.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") && lower.length() > 1 ? lower.substring(0, lower.length() - 1) : lower;
    }

    /** At most three answers, each at most 40 characters with control characters escaped, and how many there were. */
    static String excerpt(List<String> answers) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < Math.min(SHOWN_ANSWERS, answers.size()); i++) {
            shown.add(printable(answers.get(i)));
        }
        String more = answers.size() > SHOWN_ANSWERS ? ", ... " + answers.size() + " in all" : "";
        return "[" + String.join(", ", shown) + more + "]";
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < SHOWN_CHARS; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return text.length() > SHOWN_CHARS ? out + "..." : out.toString();
    }
}
