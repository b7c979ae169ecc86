package io.healthmesh.core.target;

import java.util.List;

/**
 * DNS check settings: the target is the name server, asked once for {@code name} and {@code type}.
 *
 * @param name the name asked for, such as {@code www.example.com} or {@code _sip._tcp.example.com}
 * @param type the record type asked for
 * @param expectedRcode the response code that is a success, by its name ({@code NOERROR}, {@code NXDOMAIN}, ...)
 * @param expectedAnswers when not empty, the answers of {@code type} must be exactly this set (in the presentation
 *                        form docs/PROBES.md gives: {@code 192.0.2.1}, {@code 10 mail.example.com.})
 * @param answerPatterns when not empty, every answer of {@code type} must fully match one of these RE2 patterns, and
 *                       there must be at least one answer
 */
public record DnsSpec(String name, DnsRecordType type, String expectedRcode, List<String> expectedAnswers,
                      List<String> answerPatterns) {

    /** The port a DNS check asks when a definition names none. */
    public static final int DEFAULT_PORT = 53;
    /** The response code expected when a definition names none. */
    public static final String DEFAULT_RCODE = "NOERROR";

    /** The settings used when a DNS definition has no {@code dns} section (invalid: a name is needed). */
    public static final DnsSpec DEFAULTS = new DnsSpec(null, DnsRecordType.A, DEFAULT_RCODE, List.of(), List.of());

    /** A {@code null} type is A and a {@code null} response code NOERROR: the defaults of an absent field. */
    public DnsSpec {
        type = type == null ? DnsRecordType.A : type;
        expectedRcode = expectedRcode == null ? DEFAULT_RCODE : expectedRcode;
        expectedAnswers = expectedAnswers == null ? List.of() : List.copyOf(expectedAnswers);
        answerPatterns = answerPatterns == null ? List.of() : List.copyOf(answerPatterns);
    }
}
