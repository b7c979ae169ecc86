package io.healthmesh.probe.dns;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DnsRecordType;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import io.healthmesh.testkit.TinyDnsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The DNS check against the test kit's tiny server, which misbehaves on request: truncation, SERVFAIL, silence. */
class DnsProberTest {

    private static NettyProbeEngine engine;
    private static TinyDnsServer server;

    @BeforeAll
    static void start() throws Exception {
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null);
        server = new TinyDnsServer(60).add("www.example.test", "192.0.2.7").add("truncated.example.test", "192.0.2.8");
        server.silentFor(".dead.test");
    }

    @AfterAll
    static void stop() {
        engine.close();
        server.close();
    }

    private static ProbeReport run(DnsSpec dns, int timeoutMs) throws Exception {
        TargetSpec target = Targets.target(Protocol.DNS, "127.0.0.1", server.port(), timeoutMs).withDns(dns);
        return engine.probe(target).get(timeoutMs + 5000L, TimeUnit.MILLISECONDS);
    }

    @Test
    void anExpectedAnswerIsASuccess() throws Exception {
        ProbeReport report = run(new DnsSpec("www.example.test", DnsRecordType.A, null, List.of("192.0.2.7"), null),
                Targets.GENEROUS_MS);
        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("NOERROR, 1 A answer");
    }

    @Test
    void aTruncatedAnswerIsAskedAgainOverTcp() throws Exception {
        int before = server.queriesOverTcp();
        ProbeReport report = run(new DnsSpec("truncated.example.test", DnsRecordType.A, null, List.of("192.0.2.8"),
                null), Targets.GENEROUS_MS);
        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("NOERROR, 1 A answer (over TCP)");
        assertThat(server.queriesOverTcp()).isEqualTo(before + 1);
        assertThat(report.connectMicros()).as("the TCP hop's connect time").isNotNull();
    }

    @Test
    void servfailIsAnUnexpectedResponseUnlessExpected() throws Exception {
        ProbeReport failed = run(new DnsSpec("servfail.example.test", DnsRecordType.A, null, null, null),
                Targets.GENEROUS_MS);
        assertThat(failed.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(failed.detail()).isEqualTo("rcode SERVFAIL (expected NOERROR)");
        ProbeReport expected = run(new DnsSpec("servfail.example.test", DnsRecordType.A, "SERVFAIL", null, null),
                Targets.GENEROUS_MS);
        assertThat(expected.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aWrongAnswerNamesWhatCameBack() throws Exception {
        ProbeReport report = run(new DnsSpec("www.example.test", DnsRecordType.A, null, List.of("192.0.2.99"), null),
                Targets.GENEROUS_MS);
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("answers [192.0.2.7] (expected exactly [192.0.2.99])");
    }

    @Test
    void noAnswerIsATimeoutNamingTheWait() throws Exception {
        ProbeReport report = Unstalled.check(
                () -> run(new DnsSpec("host.dead.test", DnsRecordType.A, null, null, null), 300));
        assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(report.detail()).isEqualTo("no verdict within 300 ms (awaiting the UDP answer)");
    }

    @Test
    void nxdomainCanBeTheExpectedCode() throws Exception {
        ProbeReport report = run(new DnsSpec("gone.example.test", DnsRecordType.A, "NXDOMAIN", null, null),
                Targets.GENEROUS_MS);
        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("NXDOMAIN, 0 A answers");
    }
}
