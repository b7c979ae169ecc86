package io.healthmesh.core.target;

import io.healthmesh.core.condition.ConditionLanguage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionRulesTest {

    private static final TargetSpec HTTP = TargetSpec.of("web-1", "g", "192.0.2.10", 80, Protocol.HTTP);

    private static List<String> messages(String condition) {
        return TargetValidator.validate(HTTP.withCondition(condition)).stream().map(Violation::toString).toList();
    }

    @Test
    void everyDocumentedVariableTypeChecks() {
        assertThat(messages("status == 200 && latencyMs < 500 && headers['content-type'].startsWith('application/')"
                + " && body.contains('ok') && json.status == 'ok' && dns.rcode == 'NOERROR'"
                + " && dns.answers.exists(a, a == '192.0.2.1') && tls.daysLeft > 14 && grpc.status == 'SERVING'"))
                .isEmpty();
        assertThat(messages(null)).isEmpty();
    }

    @Test
    void aSyntaxErrorNamesItsPosition() {
        assertThat(messages("status == ")).singleElement().asString()
                .startsWith("condition: 1:11: mismatched input '<EOF>'");
        assertThat(messages("status == 200 &&\n  (latencyMs < ")).singleElement().asString()
                .startsWith("condition: 2:16: mismatched input");
    }

    @Test
    void aTypeErrorNamesItsPositionAndTheTypes() {
        assertThat(messages("status == 'ok'")).containsExactly("condition: 1:8: found no matching overload for '_==_'"
                + " applied to '(int, string)' (candidates: (%A0, %A0))");
        assertThat(messages("body")).containsExactly("condition: 1:1: expected type 'bool' but found 'string'");
        assertThat(messages("certificate.days > 3")).singleElement().asString()
                .startsWith("condition: 1:1: undeclared reference to 'certificate'");
    }

    @Test
    void manyErrorsAreCountedNotAllListed() {
        assertThat(messages("a && b && c && d && e && f && g && h")).hasSize(6).last().asString()
                .isEqualTo("condition: and 3 more");
    }

    @Test
    void theLengthIsBounded() {
        String longest = "status == 200" + " ".repeat(ConditionLanguage.MAX_LENGTH - 13);
        assertThat(messages(longest)).isEmpty();
        assertThat(messages(longest + " ")).containsExactly("condition: 2049 characters (expected: at most 2048)");
    }

    @Test
    void deepNestingIsAnErrorNotACrash() {
        String deep = "(".repeat(500) + "true" + ")".repeat(500);
        assertThat(messages(deep)).isNotEmpty().allSatisfy(m -> assertThat(m).startsWith("condition: "));
    }

    @Test
    void aBlankConditionIsRefused() {
        assertThat(messages("  ")).containsExactly("condition: \"  \" (expected: a CEL expression, or no condition)");
    }

    @Test
    void conditionsAreGenericOnly() {
        TargetSpec product = HTTP.withProfile(TargetProfile.TENCENT_CLB).withCondition("status == 200");
        assertThat(TargetValidator.validate(product).stream().map(Violation::toString))
                .contains("condition: \"status == 200\" (expected: absent under " + TargetProfile.TENCENT_CLB
                        + ": conditions are GENERIC only)");
    }

    @Test
    void theConditionChangesTheGenerationOnlyWhenSet() {
        assertThat(ProbeFingerprint.of(HTTP.withCondition(null))).isEqualTo(ProbeFingerprint.of(HTTP));
        assertThat(ProbeFingerprint.of(HTTP.withCondition("status == 200")))
                .isNotEqualTo(ProbeFingerprint.of(HTTP))
                .isNotEqualTo(ProbeFingerprint.of(HTTP.withCondition("status == 201")));
    }
}
