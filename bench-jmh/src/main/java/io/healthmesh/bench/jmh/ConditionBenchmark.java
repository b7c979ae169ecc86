package io.healthmesh.bench.jmh;

import io.healthmesh.probe.condition.ConditionEvaluator;
import io.healthmesh.probe.condition.ConditionInput;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import java.util.List;
import java.util.Map;

/**
 * CPU of one condition evaluation on a prober, the expression already compiled (as it is after a definition's first
 * check): {@code status} a comparison of two ints; {@code json} the body of a typical health endpoint parsed and two
 * fields compared; {@code dns} a comprehension over four answers. Each returns the failure detail, {@code null} here.
 */
public class ConditionBenchmark extends NanosPerOperation {

    private static final String BODY = "{\"status\":\"ok\",\"version\":\"4.2.1\",\"checks\":[{\"name\":\"db\",\"up\":true},"
            + "{\"name\":\"cache\",\"up\":true}],\"uptimeSeconds\":86400}";

    private ConditionEvaluator evaluator;
    private ConditionInput http;
    private ConditionInput dnsReply;

    @Setup
    public void setUp() {
        evaluator = new ConditionEvaluator();
        http = new ConditionInput(200, 12, Map.of("content-type", "application/json"), BODY, true, null, null, null,
                null);
        dnsReply = new ConditionInput(0, 3, null, null, false, "NOERROR",
                List.of("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"), null, null);
    }

    @Benchmark
    public String status() {
        return evaluator.failure("status == 200", http);
    }

    @Benchmark
    public String json() {
        return evaluator.failure("status == 200 && json.status == 'ok' && json.checks.all(c, c.up)", http);
    }

    @Benchmark
    public String dns() {
        return evaluator.failure("dns.rcode == 'NOERROR' && dns.answers.exists(a, a == '192.0.2.4')", dnsReply);
    }
}
