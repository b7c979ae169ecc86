package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DnsRulesTest {

    private static final TargetSpec BASE = TargetSpec.of("dns-1", "g", "192.0.2.53", 53, Protocol.DNS)
            .withDns(new DnsSpec("www.example.com", DnsRecordType.A, "NOERROR", List.of("192.0.2.1"),
                    List.of("192\\.0\\.2\\.[0-9]+")));

    @Test
    void aCompleteDnsCheckIsValid() {
        assertThat(TargetValidator.validate(BASE)).isEmpty();
        assertThat(TargetValidator.validate(BASE.withDns(new DnsSpec("_sip._tcp.example.com.", DnsRecordType.SRV,
                "NXDOMAIN", null, null)))).isEmpty();
    }

    @Test
    void absentTypeAndRcodeAreTheDefaults() {
        DnsSpec dns = new DnsSpec("example.com", null, null, null, null);
        assertThat(dns.type()).isEqualTo(DnsRecordType.A);
        assertThat(dns.expectedRcode()).isEqualTo("NOERROR");
    }

    @Test
    void theNameIsRequiredAndADomainName() {
        assertThat(messages(new DnsSpec(null, null, null, null, null)))
                .containsExactly("dns.name: null (expected: a domain name: labels of 1..63 letters, digits, '-' or '_',"
                        + " at most 253 characters)");
        assertThat(messages(new DnsSpec("bad name.example", null, null, null, null))).hasSize(1);
        assertThat(messages(new DnsSpec("a..b", null, null, null, null))).hasSize(1);
        assertThat(messages(new DnsSpec("x".repeat(64) + ".example", null, null, null, null))).hasSize(1);
    }

    @Test
    void theRcodeIsOneOfTheNamedCodes() {
        assertThat(messages(new DnsSpec("example.com", null, "NOPE", null, null)))
                .containsExactly("dns.expectedRcode: \"NOPE\" (expected: one of NOERROR, FORMERR, SERVFAIL, NXDOMAIN,"
                        + " NOTIMP, REFUSED, YXDOMAIN, YXRRSET, NXRRSET, NOTAUTH, NOTZONE)");
    }

    @Test
    void expectedAnswersAreBounded() {
        assertThat(messages(new DnsSpec("example.com", null, null, Collections.nCopies(17, "192.0.2.1"), null)))
                .containsExactly("dns.expectedAnswers: 17 entries (expected: at most 16)");
        assertThat(messages(new DnsSpec("example.com", null, null, List.of("a\nb"), null)))
                .containsExactly("dns.expectedAnswers[0]: \"a\\nb\" (expected: 1..512 characters, no control characters)");
        assertThat(messages(new DnsSpec("example.com", null, null, List.of("x".repeat(513)), null))).hasSize(1);
    }

    @Test
    void patternsAreBoundedAndCompileAsRe2() {
        assertThat(messages(new DnsSpec("example.com", null, null, null, Collections.nCopies(9, "a"))))
                .containsExactly("dns.answerPatterns: 9 entries (expected: at most 8)");
        assertThat(messages(new DnsSpec("example.com", null, null, null, List.of("x".repeat(257))))).hasSize(1);
        assertThat(messages(new DnsSpec("example.com", null, null, null, List.of("(unclosed"))))
                .singleElement().asString().startsWith("dns.answerPatterns[0]: \"(unclosed\" (expected: an RE2 pattern");
        // a back-reference is what makes a backtracking engine exponential: RE2 has none, and says so here
        assertThat(messages(new DnsSpec("example.com", null, null, null, List.of("(a+)\\1")))).hasSize(1);
    }

    @Test
    void aDnsSectionChangesTheGeneration() {
        long before = ProbeFingerprint.of(BASE);
        assertThat(ProbeFingerprint.of(BASE.withDns(new DnsSpec("www.example.com", DnsRecordType.AAAA, "NOERROR",
                List.of("192.0.2.1"), List.of("192\\.0\\.2\\.[0-9]+"))))).isNotEqualTo(before);
        assertThat(ProbeFingerprint.of(BASE.withDns(new DnsSpec("www.example.com", DnsRecordType.A, "NOERROR",
                List.of("192.0.2.1"), List.of())))).isNotEqualTo(before);
        assertThat(ProbeFingerprint.of(BASE.withThresholds(2, 2))).isEqualTo(before);
    }

    @Test
    void productProfilesRefuseDnsNamingTheProduct() {
        for (TargetProfile profile : List.of(TargetProfile.TENCENT_CLB, TargetProfile.TENCENT_EDGEONE,
                TargetProfile.ALIBABA_NLB, TargetProfile.ALIBABA_GA)) {
            assertThat(TargetValidator.validate(BASE.withProfile(profile)).stream().map(Violation::toString))
                    .as(profile.name())
                    .anySatisfy(m -> assertThat(m).startsWith("protocol: DNS (expected: one of ")
                            .endsWith("under " + profile.name() + ")"));
        }
    }

    private static List<String> messages(DnsSpec dns) {
        return TargetValidator.validate(BASE.withDns(dns)).stream().map(Violation::toString).toList();
    }
}
