package io.healthmesh.prober;

import io.healthmesh.ops.Setting;
import io.healthmesh.probe.ProbeEngineConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProberConfigTest {

    private static Map<String, String> minimal() {
        Map<String, String> m = new HashMap<>();
        m.put("bootstrap.servers", "127.0.0.1:9092");
        m.put("schema.registry.url", "http://127.0.0.1:8081");
        return m;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> m = minimal();
        m.put(key, value);
        return m;
    }

    @Test
    void defaultsApplyToEveryOptionalSetting() {
        ProberConfig c = ProberConfig.from(minimal());

        assertThat(c.region()).isEqualTo("default");
        assertThat(c.groupId()).isEqualTo("healthmesh-prober-default");
        assertThat(c.topics().targets()).isEqualTo("healthmesh.targets");
        assertThat(c.httpHost()).isEqualTo("0.0.0.0");
        assertThat(c.httpPort()).isEqualTo(8080);
        assertThat(c.maxInFlight()).isEqualTo(1_000);
        assertThat(c.jitterFraction()).isEqualTo(1.0);
        assertThat(c.timerTickMs()).isEqualTo(10);
        assertThat(c.userAgent()).isEqualTo("healthmesh-healthcheck");
        assertThat(c.denyList()).containsExactlyElementsOf(ProbeEngineConfig.DEFAULT_DENY_LIST).contains("127.0.0.0/8");
        assertThat(c.allowList()).isEmpty();
        assertThat(c.deniedEndpoints()).isEmpty();
        assertThat(c.bufferCapacity()).isEqualTo(10_000);
        assertThat(c.eventLoopThreads()).isBetween(1, 256);
        assertThat(c.proberId()).matches("[A-Za-z0-9._:@-]+-\\d+");
        // a static member named by the host (the pid in the default prober id changes on restart)
        // and a request timeout that gives a lost broker up in seconds (BrokerLossTimeouts)
        assertThat(c.kafka()).containsOnlyKeys("group.instance.id", "session.timeout.ms", "heartbeat.interval.ms",
                        "request.timeout.ms")
                .containsEntry("session.timeout.ms", "10000").containsEntry("request.timeout.ms", "5000");
        assertThat(c.proberId()).startsWith(c.kafka().get("group.instance.id") + "-");
        assertThat(c.serdeConfig()).containsExactly(Map.entry("schema.registry.url", "http://127.0.0.1:8081"));
    }

    @Test
    void everySettingIsRead() {
        Map<String, String> m = minimal();
        m.putAll(Map.of("region", "eu-west-1", "prober.id", "p-1", "topic.prefix", "staging.", "http.port", "0",
                "max.in.flight", "50", "jitter.fraction", "0", "user.agent", "acme-check/1.0", "deny.list",
                " 10.0.0.0/8 ,, 192.168.0.0/16", "buffer.capacity", "7", "event.loop.threads", "3"));
        m.putAll(Map.of("timer.tick.ms", "5", "http.host", "127.0.0.1", "basic.auth.credentials.source", "USER_INFO",
                "basic.auth.user.info", "u:p"));

        ProberConfig c = ProberConfig.from(m);

        assertThat(c.groupId()).isEqualTo("healthmesh-prober-eu-west-1");
        assertThat(c.rejectedBy()).isEqualTo("prober/eu-west-1/p-1");
        assertThat(c.topics().probeResults()).isEqualTo("staging.probe-results");
        assertThat(c.denyList()).containsExactly("10.0.0.0/8", "192.168.0.0/16");
        assertThat(List.of(c.httpPort(), c.maxInFlight(), c.bufferCapacity(), c.eventLoopThreads(), c.timerTickMs()))
                .containsExactly(0, 50, 7, 3, 5);
        assertThat(c.jitterFraction()).isZero();
        assertThat(c.userAgent()).isEqualTo("acme-check/1.0");
        assertThat(c.serdeConfig()).containsEntry("basic.auth.user.info", "u:p")
                .containsEntry("basic.auth.credentials.source", "USER_INFO");
        assertThat(c.toString()).doesNotContain("u:p");
        Map<String, String> withUrlCredentials = minimal();
        withUrlCredentials.put("schema.registry.url", "http://reader:url-secret@127.0.0.1:8081");
        assertThat(ProberConfig.from(withUrlCredentials).toString()).doesNotContain("url-secret")
                .contains("schemaRegistryUrl=http://***@127.0.0.1:8081");
    }

    @Test
    void allowListAndDeniedEndpointsAreRead() {
        Map<String, String> m = minimal();
        m.put("allow.list", "127.0.0.0/8, ::1/128");
        m.put("deny.endpoints", "aggregator-1:8080,[fd00::7]:8081");
        ProberConfig c = ProberConfig.from(m);
        assertThat(c.allowList()).containsExactly("127.0.0.0/8", "::1/128");
        assertThat(c.deniedEndpoints()).containsExactly("aggregator-1:8080", "[fd00::7]:8081");
        assertThatThrownBy(() -> ProberConfig.from(with("allow.list", "127.0.0.1")))
                .hasMessageContaining("allow.list: allowList: '127.0.0.1'");
        assertThatThrownBy(() -> ProberConfig.from(with("deny.endpoints", "aggregator-1")))
                .hasMessageContaining("deny.endpoints: deniedEndpoints: 'aggregator-1'");
    }

    @Test
    void transportIsAutoByDefaultAndOnlyTheFourNamesAreAccepted() {
        assertThat(ProberConfig.from(minimal()).transport()).isEqualTo(io.healthmesh.probe.transport.ProbeTransport.AUTO);
        assertThat(ProberConfig.from(with("transport", "epoll")).transport())
                .isEqualTo(io.healthmesh.probe.transport.ProbeTransport.EPOLL);
        assertThat(ProberConfig.from(with("transport", "io_uring")).transport())
                .isEqualTo(io.healthmesh.probe.transport.ProbeTransport.IO_URING);
        assertThatThrownBy(() -> ProberConfig.from(with("transport", "kqueue")))
                .hasMessageContaining("transport: kqueue (expected: auto|io_uring|epoll|nio)");
    }

    @Test
    void clusterEndpointsAreTheBootstrapServersTheRegistryAndTheOwnPort() {
        Map<String, String> m = minimal();
        m.put("bootstrap.servers", "kafka-1:9092, SASL_SSL://kafka-2:9093");
        m.put("schema.registry.url", "https://reader:secret@registry:8443,http://registry-2");
        m.put("http.host", "::");
        m.put("deny.endpoints", "aggregator-1:8080");
        assertThat(ClusterEndpoints.of(ProberConfig.from(m), 8090)).containsExactly("kafka-1:9092", "kafka-2:9093",
                "registry:8443", "registry-2:80", "[::]:8090", "aggregator-1:8080");
        assertThat(ClusterEndpoints.registry("mem://demo")).isEmpty();
    }

    @Test
    void registryClientTlsAndHttpHardeningSettings() {
        Map<String, String> m = minimal();
        m.putAll(Map.of("schema.registry.ssl.truststore.location", "/etc/trust.p12",
                "schema.registry.ssl.truststore.password", "trust-secret", "schema.registry.basic.auth.allow.insecure.http", "true",
                "ops.port", "9100", "ops.token", "ops-token-0123456789", "http.max.connections", "100"));
        ProberConfig c = ProberConfig.from(m);
        assertThat(c.serdeConfig()).containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12")
                .containsEntry("schema.registry.basic.auth.allow.insecure.http", "true");
        assertThat(c.http().opsPort()).isEqualTo(9100);
        assertThat(c.http().limits().maxConnections()).isEqualTo(100);
        assertThat(c.toString()).doesNotContain("trust-secret").doesNotContain("ops-token-0123456789");
        assertThatThrownBy(() -> ProberConfig.from(with("schema.registry.sslx", "1")))
                .hasMessageContaining("schema.registry.sslx: unknown setting");
        assertThatThrownBy(() -> ProberConfig.from(with("ops.port", "-5"))).hasMessageContaining("ops.port: -5 (expected: 0..65535)");
    }

    @Test
    void emptyDenyListIsAllowed() {
        assertThat(ProberConfig.from(with("deny.list", "")).denyList()).isEmpty();
    }

    @Test
    void kafkaSettingsPassThroughWithoutThePrefix() {
        Map<String, String> m = minimal();
        m.put("kafka.security.protocol", "SASL_SSL");
        m.put("kafka.sasl.jaas.config", "secret");

        ProberConfig c = ProberConfig.from(m);

        assertThat(c.kafka()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.jaas.config", "secret");
        assertThat(c.toString()).doesNotContain("secret");
    }

    @Test
    void requiredSettingsAreReportedTogether() {
        assertThatThrownBy(() -> ProberConfig.from(Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid prober settings: bootstrap.servers: missing (expected: a value, this setting is "
                        + "required); schema.registry.url: missing (expected: a value, this setting is required)");
    }

    @Test
    void unknownKeyIsRejected() {
        assertThatThrownBy(() -> ProberConfig.from(with("max.inflight", "3")))
                .hasMessageContaining("max.inflight: unknown setting (expected: a key of docs/CONFIGURATION.md");
    }

    @Test
    void eachRangeHasItsMessage() {
        expectProblem("region", "eu west", "region: eu west (expected: 1-64 of [A-Za-z0-9._-])");
        expectProblem("prober.id", "", "prober.id: \"\" (expected: 1-128 of [A-Za-z0-9._:@-])");
        expectProblem("topic.prefix", "a/b", "topic.prefix: a/b (expected: 0-200 of [A-Za-z0-9._-])");
        expectProblem("http.port", "65536", "http.port: 65536 (expected: 0..65535)");
        expectProblem("http.port", "http", "http.port: http (expected: 0..65535)");
        expectProblem("max.in.flight", "0", "max.in.flight: 0 (expected: 1..100000)");
        expectProblem("jitter.fraction", "1.5", "jitter.fraction: 1.5 (expected: 0..1)");
        expectProblem("jitter.fraction", "NaN", "jitter.fraction: NaN (expected: 0..1)");
        expectProblem("timer.tick.ms", "0", "timer.tick.ms: 0 (expected: 1..1000)");
        expectProblem("user.agent", "bad\tagent", "user.agent: bad\tagent (expected: 1-200 printable ASCII characters)");
        expectProblem("buffer.capacity", "0", "buffer.capacity: 0 (expected: 1..10000000)");
        expectProblem("event.loop.threads", "257", "event.loop.threads: 257 (expected: 1..256)");
        expectProblem("basic.auth.credentials.source", "SASL",
                "basic.auth.credentials.source: SASL (expected: URL or USER_INFO)");
        expectProblem("deny.list", "10.0.0.0/33", "deny.list: ");
        expectProblem("inconclusive.fraction", "0", "inconclusive.fraction: 0 (expected: above 0, at most 1)");
        expectProblem("inconclusive.fraction", "1.1", "inconclusive.fraction: 1.1 (expected: above 0, at most 1)");
    }

    @Test
    void dnsSettingsAreReadAndChecked() {
        ProberConfig defaults = ProberConfig.from(minimal());
        assertThat(defaults.resilience().dns().servers()).isEmpty();
        assertThat(defaults.resilience().dns().queryTimeoutMs()).isEqualTo(2_000);
        assertThat(defaults.resilience().dnsMaxPending()).isEqualTo(10_000);
        Map<String, String> m = minimal();
        m.put("dns.servers", "10.0.0.2, 10.0.0.3:5353");
        m.put("dns.query.timeout.ms", "750");
        m.put("dns.max.pending", "20");
        m.put("dns.cache.max.ttl.s", "60");
        m.put("dns.cache.negative.ttl.s", "0");
        ProberResilience r = ProberConfig.from(m).resilience();
        assertThat(r.dns().servers()).containsExactly("10.0.0.2", "10.0.0.3:5353");
        assertThat(r.dns().queryTimeoutMs()).isEqualTo(750);
        assertThat(r.dnsMaxPending()).isEqualTo(20);
        assertThat(r.dns().maxTtlSeconds()).isEqualTo(60);
        assertThat(r.dns().negativeTtlSeconds()).isZero();
        expectProblem("dns.servers", "ns1.example.com", "dns.servers: 'ns1.example.com' (expected: an IP address");
        expectProblem("dns.query.timeout.ms", "10", "dns.query.timeout.ms: 10 (expected: 100..60000)");
        expectProblem("dns.max.pending", "0", "dns.max.pending: 0 (expected: 1..1000000)");
    }

    @Test
    void inconclusiveFractionDefaultsToAQuarterAndIsRead() {
        assertThat(ProberConfig.from(minimal()).resilience().inconclusiveFraction()).isEqualTo(0.25);
        assertThat(ProberConfig.from(with("inconclusive.fraction", "0.5")).resilience().inconclusiveFraction())
                .isEqualTo(0.5);
    }

    @Test
    void publishTuningDefaultsAndRanges() {
        assertThat(ProberConfig.from(minimal()).publish()).isEqualTo(PublishTuning.defaults());
        Map<String, String> m = minimal();
        m.put("publish.compression", "zstd");
        m.put("publish.linger.ms", "0");
        m.put("publish.batch.bytes", "1024");
        assertThat(ProberConfig.from(m).publish()).isEqualTo(new PublishTuning("zstd", 0, 1_024));
        expectProblem("publish.compression", "brotli",
                "publish.compression: brotli (expected: none or gzip or snappy or lz4 or zstd)");
        expectProblem("publish.linger.ms", "1001", "publish.linger.ms: 1001 (expected: 0..1000)");
        expectProblem("publish.batch.bytes", "512", "publish.batch.bytes: 512 (expected: 1024..16777216)");
    }

    @Test
    void urgentResultsAreOnByDefaultAndCanBeTurnedOff() {
        assertThat(ProberConfig.from(minimal()).publish().urgent()).isTrue();
        assertThat(ProberConfig.from(minimal()).publish().lingerMs()).isEqualTo(20);
        assertThat(ProberConfig.from(with("publish.urgent", "false")).publish())
                .isEqualTo(new PublishTuning("lz4", 20, 16_384, false));
        expectProblem("publish.urgent", "sometimes", "publish.urgent: sometimes (expected: true or false)");
    }

    private static void expectProblem(String key, String value, String message) {
        assertThatThrownBy(() -> ProberConfig.from(with(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid prober settings: " + message);
    }

    @Test
    void everyDocumentedKeyIsAccepted() {
        ProberConfig.SETTINGS.forEach(s -> assertThat(s.doc()).as(s.key()).isNotBlank());
        assertThat(ProberConfig.SETTINGS).extracting(Setting::key).doesNotHaveDuplicates();
    }
}
