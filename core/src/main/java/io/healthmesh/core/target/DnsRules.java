package io.healthmesh.core.target;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

import java.util.List;
import java.util.Set;

/**
 * The rules of a DNS check's section, called by {@link TargetValidator}: the name asked for, the type, the expected
 * response code and the bounds of the expected answers. Answer patterns are RE2 syntax, compiled here with RE2/J,
 * whose matching time is linear in the input: a pattern written into a definition cannot backtrack
 * catastrophically on a prober, whatever a name server answers.
 */
public final class DnsRules {

    /** Most entries in {@code dns.expectedAnswers}. */
    public static final int MAX_EXPECTED_ANSWERS = 16;
    /** Longest expected answer, in characters. */
    public static final int MAX_ANSWER_LENGTH = 512;
    /** Most entries in {@code dns.answerPatterns}. */
    public static final int MAX_PATTERNS = 8;
    /** Longest answer pattern, in characters. */
    public static final int MAX_PATTERN_LENGTH = 256;
    /** Longest name asked for (RFC 1035's 253 characters of text). */
    public static final int MAX_NAME_LENGTH = 253;
    /** The response codes of RFC 1035 and RFC 2136, by name: the values {@code dns.expectedRcode} may take. */
    public static final List<String> RCODES = List.of("NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP",
            "REFUSED", "YXDOMAIN", "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE");

    private static final Set<String> RCODE_SET = Set.copyOf(RCODES);

    private DnsRules() {
    }

    static void check(List<Violation> out, DnsSpec dns) {
        if (dns.name() == null || !isQueryName(dns.name())) {
            out.add(Violation.of("dns.name", Texts.show(dns.name()),
                    "a domain name: labels of 1..63 letters, digits, '-' or '_', at most " + MAX_NAME_LENGTH
                            + " characters"));
        }
        if (dns.expectedRcode() == null || !RCODE_SET.contains(dns.expectedRcode())) {
            out.add(Violation.of("dns.expectedRcode", Texts.show(dns.expectedRcode()),
                    "one of " + String.join(", ", RCODES)));
        }
        if (dns.expectedAnswers().size() > MAX_EXPECTED_ANSWERS) {
            out.add(Violation.of("dns.expectedAnswers", dns.expectedAnswers().size() + " entries",
                    "at most " + MAX_EXPECTED_ANSWERS));
        }
        for (int i = 0; i < Math.min(dns.expectedAnswers().size(), MAX_EXPECTED_ANSWERS); i++) {
            String answer = dns.expectedAnswers().get(i);
            if (answer.isEmpty() || answer.length() > MAX_ANSWER_LENGTH || !Texts.printable(answer)) {
                out.add(Violation.of("dns.expectedAnswers[" + i + "]", Texts.show(answer),
                        "1.." + MAX_ANSWER_LENGTH + " characters, no control characters"));
            }
        }
        if (dns.answerPatterns().size() > MAX_PATTERNS) {
            out.add(Violation.of("dns.answerPatterns", dns.answerPatterns().size() + " entries",
                    "at most " + MAX_PATTERNS));
        }
        for (int i = 0; i < Math.min(dns.answerPatterns().size(), MAX_PATTERNS); i++) {
            checkPattern(out, "dns.answerPatterns[" + i + "]", dns.answerPatterns().get(i));
        }
    }

    /** The compiled pattern of a validated spec's entry. */
    public static Pattern compile(String pattern) {
        return Pattern.compile(pattern);
    }

    private static void checkPattern(List<Violation> out, String field, String pattern) {
        if (pattern.isEmpty() || pattern.length() > MAX_PATTERN_LENGTH || !Texts.printable(pattern)) {
            out.add(Violation.of(field, Texts.show(pattern),
                    "1.." + MAX_PATTERN_LENGTH + " characters, no control characters"));
            return;
        }
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            out.add(Violation.of(field, Texts.show(pattern), "an RE2 pattern: " + Texts.shortened(
                    e.getDescription() == null ? "invalid" : e.getDescription())));
        }
    }

    /** A name as DNS asks it: host-name labels, with '_' allowed (SRV's {@code _sip._tcp}), an optional final dot. */
    static boolean isQueryName(String text) {
        String name = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (label.isEmpty() || label.length() > 63) {
                return false;
            }
            for (int i = 0; i < label.length(); i++) {
                char c = label.charAt(i);
                boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || c == '-' || c == '_';
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }
}
