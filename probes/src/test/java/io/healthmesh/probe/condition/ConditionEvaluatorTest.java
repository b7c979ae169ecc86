package io.healthmesh.probe.condition;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionEvaluatorTest {

    private final ConditionEvaluator evaluator = new ConditionEvaluator();

    private static ConditionInput http(int status, Map<String, String> headers, String body) {
        return new ConditionInput(status, 42, headers, body, true, null, null, null, null);
    }

    private static final ConditionInput NOTHING = new ConditionInput(0, 7, null, null, false, null, null, null, null);

    @Test
    void statusLatencyHeadersAndBody() {
        ConditionInput in = http(204, Map.of("content-type", "text/plain"), "all good");
        assertThat(evaluator.failure("status == 204 && latencyMs == 42", in)).isNull();
        assertThat(evaluator.failure("headers['content-type'] == 'text/plain'", in)).isNull();
        assertThat(evaluator.failure("body.contains('good') && body.matches('^all')", in)).isNull();
        assertThat(evaluator.failure("status == 200", in)).isEqualTo("condition false");
        assertThat(evaluator.failure("latencyMs < 10", in)).isEqualTo("condition false");
    }

    @Test
    void jsonIsTheParsedBody() {
        ConditionInput in = http(200, Map.of(), "{\"status\": \"degraded\", \"n\": 3, \"ratio\": 0.5, \"up\": true,"
                + " \"items\": [1, 2], \"none\": null}");
        assertThat(evaluator.failure("json.status == 'degraded' && json.n == 3 && json.ratio > 0.25 && json.up"
                + " && json.items.size() == 2 && json.none == null && !has(json.missing)", in)).isNull();
        assertThat(evaluator.failure("json.status == 'ok'", in)).isEqualTo("condition false");
    }

    @Test
    void aBodyThatIsNotJsonOrWasCutMakesJsonNull() {
        assertThat(evaluator.failure("json == null", http(200, Map.of(), "<html>"))).isNull();
        ConditionInput cut = new ConditionInput(200, 1, Map.of(), "{\"a\": 1}", false, null, null, null, null);
        assertThat(evaluator.failure("json == null", cut)).isNull();
        assertThat(evaluator.failure("json.status == 'ok'", http(200, Map.of(), "not json")))
                .startsWith("condition error: ");
    }

    @Test
    void dnsTlsAndGrpcFacts() {
        ConditionInput dns = new ConditionInput(0, 3, null, null, false, "NOERROR", List.of("192.0.2.7", "192.0.2.8"),
                null, null);
        assertThat(evaluator.failure("dns.rcode == 'NOERROR' && dns.answers.exists(a, a == '192.0.2.8')"
                + " && dns.answers.size() == 2", dns)).isNull();
        assertThat(evaluator.failure("dns.answers.all(a, a.startsWith('198.'))", dns)).isEqualTo("condition false");
        ConditionInput tls = new ConditionInput(200, 3, null, null, false, null, null, 20L, "SERVING");
        assertThat(evaluator.failure("tls.daysLeft >= 14 && grpc.status == 'SERVING'", tls)).isNull();
        assertThat(evaluator.failure("tls.daysLeft > 30", tls)).isEqualTo("condition false");
    }

    @Test
    void aFactTheCheckDidNotProduceIsAbsent() {
        assertThat(evaluator.failure("!has(dns.rcode) && !has(tls.daysLeft) && !has(grpc.status) && status == 0"
                + " && body == '' && headers.size() == 0", NOTHING)).isNull();
        assertThat(evaluator.failure("dns.rcode == 'NOERROR'", NOTHING)).isEqualTo("condition error: ATTRIBUTE_NOT_FOUND");
    }

    @Test
    void anEvaluationOverItsBudgetFailsWithAClearDetail() {
        ConditionInput in = http(200, Map.of(), "{\"items\": [" + "1,".repeat(999) + "1]}");
        String nested = "json.items.all(a, json.items.all(b, a == b))";
        assertThat(evaluator.failure(nested, in)).isEqualTo(ConditionEvaluator.OVER_COST_DETAIL);
        assertThat(ConditionEvaluator.OVER_COST_DETAIL).contains("cost limit");
    }

    @Test
    void aDetailNeverCarriesWhatTheServerSent() {
        ConditionInput in = http(200, Map.of("x-secret", "s3cr3t"), "s3cr3t-body");
        assertThat(evaluator.failure("int(body) > 3", in)).isEqualTo("condition error: BAD_FORMAT")
                .doesNotContain("s3cr3t");
        assertThat(evaluator.failure("headers['x-secret'] == 'other'", in)).isEqualTo("condition false");
    }

    @Test
    void anExpressionIsCompiledOnceAndABadOneFails() {
        evaluator.failure("status == 200", NOTHING);
        evaluator.failure("status == 200", NOTHING);
        assertThat(evaluator.cached()).isEqualTo(1);
        assertThat(evaluator.failure("status ==", NOTHING)).isEqualTo("condition does not compile");
    }
}
