package io.healthmesh.probe.condition;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.testkit.TinyDnsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Conditions on DNS checks against the test kit's tiny name server. */
class DnsConditionTest {

    private static NettyProbeEngine engine;
    private static TinyDnsServer server;

    @BeforeAll
    static void start() throws Exception {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null);
        server = new TinyDnsServer(60).add("www.example.test", "192.0.2.7");
    }

    @AfterAll
    static void stop() {
        engine.close();
        server.close();
    }

    private static ProbeReport run(String condition) throws Exception {
        TargetSpec target = Targets.target(Protocol.DNS, "127.0.0.1", server.port(), 2_000)
                .withDns(new DnsSpec("www.example.test", DnsRecordType.A, null, null, null))
                .withCondition(condition);
        return engine.probe(target).get(7_000, TimeUnit.MILLISECONDS);
    }

    @Test
    void aConditionOverTheAnswersDecidesTheCheck() throws Exception {
        assertThat(run("dns.rcode == 'NOERROR' && dns.answers.exists(a, a == '192.0.2.7')").outcome())
                .isEqualTo(Outcome.SUCCESS);
        ProbeReport report = run("dns.answers.exists(a, a.startsWith('198.51.100.'))");
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("condition false");
    }

    @Test
    void aDnsCheckHasNoHttpFacts() throws Exception {
        assertThat(run("status == 0 && !has(tls.daysLeft) && latencyMs >= 0").outcome()).isEqualTo(Outcome.SUCCESS);
    }
}
