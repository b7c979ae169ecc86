package io.healthmesh.probe.dns;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DnsAnswerJudgeTest {

    private static DnsAnswerJudge.Verdict judge(DnsSpec spec, String rcode, List<String> answers) {
        return new DnsAnswerJudge(spec).judge(new DnsReply(rcode, answers, false));
    }

    @Test
    void expectedAnswersAreASetComparedWithoutCaseOrFinalDot() {
        DnsSpec spec = new DnsSpec("example.com", DnsRecordType.MX, null,
                List.of("10 MAIL.example.com", "20 backup.example.com."), null);
        assertThat(judge(spec, "NOERROR", List.of("20 backup.example.com.", "10 mail.example.com.")).outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(judge(spec, "NOERROR", List.of("10 mail.example.com.")).detail())
                .isEqualTo("answers [10 mail.example.com.] (expected exactly [10 MAIL.example.com, 20 backup.example.com.])");
    }

    @Test
    void everyAnswerMustMatchAPatternAndThereMustBeOne() {
        DnsSpec spec = new DnsSpec("example.com", DnsRecordType.A, null, null, List.of("192\\.0\\.2\\.[0-9]+"));
        assertThat(judge(spec, "NOERROR", List.of("192.0.2.1", "192.0.2.200")).outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(judge(spec, "NOERROR", List.of("192.0.2.1", "198.51.100.1")).detail())
                .isEqualTo("answer [198.51.100.1] matches no answerPattern");
        assertThat(judge(spec, "NOERROR", List.of()).detail())
                .isEqualTo("no A answer (expected answers matching answerPatterns)");
        // a pattern matches the whole answer, not a part of it
        assertThat(judge(spec, "NOERROR", List.of("192.0.2.1x")).outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
    }

    @Test
    void theRcodeComesFirst() {
        DnsSpec spec = new DnsSpec("example.com", DnsRecordType.A, null, List.of("192.0.2.1"), null);
        assertThat(judge(spec, "REFUSED", List.of()).detail()).isEqualTo("rcode REFUSED (expected NOERROR)");
    }

    @Test
    void theDetailShowsABoundedExcerptWithoutControlCharacters() {
        DnsSpec spec = new DnsSpec("example.com", DnsRecordType.TXT, null, List.of("v=spf1 -all"), null);
        List<String> answers = new java.util.ArrayList<>(Collections.nCopies(10, "x".repeat(300)));
        answers.add(0, "evil\r\nInjected: yes");
        String detail = judge(spec, "NOERROR", answers).detail();
        assertThat(detail).doesNotContain("\r").doesNotContain("\n").contains("evil\\x0d\\x0aInjected: yes")
                .contains("... 11 in all");
        assertThat(detail.length()).isLessThan(250);
    }
}
