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
import io.healthmesh.testkit.LocalNamed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The DNS check against a real BIND 9 {@code named}: every record type, NXDOMAIN, answers that match and not. */
class DnsProberIT {

    private static final String RECORDS = """
            www IN A 192.0.2.10
            www IN A 192.0.2.11
            v6 IN AAAA 2001:db8::1
            alias IN CNAME www.probe.test.
            @ IN MX 10 mail.probe.test.
            @ IN MX 20 backup.probe.test.
            @ IN TXT "v=spf1 -all"
            long IN TXT "part one " "part two"
            _sip._tcp IN SRV 10 5 5060 sip.probe.test.
            """;

    @TempDir
    static Path dir;
    private static LocalNamed named;
    private static NettyProbeEngine engine;

    @BeforeAll
    static void start() throws Exception {
        named = LocalNamed.start(dir, Map.of("probe.test", RECORDS));
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null);
    }

    @AfterAll
    static void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (named != null) {
            named.close();
        }
    }

    private static ProbeReport run(String name, DnsRecordType type, List<String> expected) throws Exception {
        return run(new DnsSpec(name, type, null, expected, null));
    }

    private static ProbeReport run(DnsSpec dns) throws Exception {
        TargetSpec target = Targets.target(Protocol.DNS, "127.0.0.1", named.port(), Targets.GENEROUS_MS).withDns(dns);
        return engine.probe(target).get(Targets.GENEROUS_MS + 5000L, TimeUnit.MILLISECONDS);
    }

    private static void succeeds(String name, DnsRecordType type, String... expected) throws Exception {
        ProbeReport report = run(name, type, List.of(expected));
        assertThat(report.outcome()).as(type + " " + name + ": " + report.detail()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void everyRecordTypeIsReadAsItsPresentationText() throws Exception {
        succeeds("www.probe.test", DnsRecordType.A, "192.0.2.10", "192.0.2.11");
        succeeds("v6.probe.test", DnsRecordType.AAAA, "2001:db8::1");
        succeeds("alias.probe.test", DnsRecordType.CNAME, "www.probe.test.");
        succeeds("probe.test", DnsRecordType.MX, "10 mail.probe.test.", "20 backup.probe.test.");
        succeeds("probe.test", DnsRecordType.TXT, "v=spf1 -all");
        succeeds("long.probe.test", DnsRecordType.TXT, "part one part two");
        succeeds("_sip._tcp.probe.test", DnsRecordType.SRV, "10 5 5060 sip.probe.test.");
        succeeds("probe.test", DnsRecordType.SOA, "ns.probe.test. hostmaster.probe.test. 1 3600 600 86400 60");
    }

    @Test
    void nxdomainFailsUnlessItIsExpected() throws Exception {
        ProbeReport missing = run("nothing.probe.test", DnsRecordType.A, List.of());
        assertThat(missing.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(missing.detail()).isEqualTo("rcode NXDOMAIN (expected NOERROR)");
        ProbeReport expected = run(new DnsSpec("nothing.probe.test", DnsRecordType.A, "NXDOMAIN", null, null));
        assertThat(expected.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void answersThatDifferFailNamingThem() throws Exception {
        ProbeReport report = run("www.probe.test", DnsRecordType.A, List.of("192.0.2.10"));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).startsWith("answers [192.0.2.1").endsWith("(expected exactly [192.0.2.10])");
        ProbeReport patterns = run(new DnsSpec("probe.test", DnsRecordType.MX, null, null,
                List.of("10 mail\\.probe\\.test\\.")));
        assertThat(patterns.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(patterns.detail()).isEqualTo("answer [20 backup.probe.test.] matches no answerPattern");
        ProbeReport matching = run(new DnsSpec("probe.test", DnsRecordType.MX, null, null,
                List.of("[0-9]+ [a-z]+\\.probe\\.test\\.")));
        assertThat(matching.outcome()).as(matching.detail()).isEqualTo(Outcome.SUCCESS);
    }
}
