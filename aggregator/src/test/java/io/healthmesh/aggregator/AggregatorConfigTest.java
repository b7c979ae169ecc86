package io.healthmesh.aggregator;

import io.healthmesh.status.StatusSettings;
import io.healthmesh.contract.TopicReplication;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AggregatorConfigTest {

    private static final Map<String, String> REQUIRED = Map.of(
            "bootstrap.servers", "127.0.0.1:9092", "schema.registry.url", "http://127.0.0.1:8081");

    @Test
    void aSingleCopyIsRefusedAtStartUnlessTheSetupSaysItIsADemo() {
        // refused before any Kafka client is made: the bootstrap servers are never asked
        assertThatThrownBy(() -> AggregatorWorker.start(AggregatorConfig.from(with("replication.factor", "1"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("healthmesh-aggregator's changelog and repartition topics with"
                        + " replication.factor=1")
                .hasMessageContaining("replication.single.copy.allowed=true");
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> settings = new HashMap<>(REQUIRED);
        settings.put(key, value);
        return settings;
    }

    private static Map<String, String> withPaced(String key, String value) {
        Map<String, String> settings = with(key, value);
        settings.put("commit.paced", "true");
        return settings;
    }

    private static void refused(String key, String value, String message) {
        assertThatThrownBy(() -> AggregatorConfig.from(with(key, value)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void defaultsApplyWhenOnlyTheRequiredKeysAreGiven() {
        AggregatorConfig c = AggregatorConfig.from(REQUIRED);
        assertThat(c.applicationId()).isEqualTo("healthmesh-aggregator");
        assertThat(c.topics().targets()).isEqualTo("healthmesh.targets");
        assertThat(c.httpPort()).isEqualTo(AggregatorConfig.DEFAULT_HTTP_PORT);
        assertThat(c.httpHost()).isEqualTo("0.0.0.0");
        assertThat(c.applicationServer()).isNull();
        assertThat(c.staleness().factor()).isEqualTo(3.0);
        assertThat(c.punctuateInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.commitInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(c.commitOnChange()).isFalse();
        assertThat(c.partitions()).isEqualTo(6);
        // the production shape: three copies, two in sync, for healthmesh's topics and Kafka Streams' own
        assertThat(c.replication()).isEqualTo(TopicReplication.production());
        assertThat(c.streamsProperties("h:1")).containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, "3")
                .containsEntry("topic.min.insync.replicas", "2");
        // a static member named by this host and state directory, with a 10 s session (crash-recovery.md)
        // and client timeouts that give a lost broker up in seconds (BrokerLossTimeouts)
        assertThat(c.kafka()).containsOnlyKeys("group.instance.id", "session.timeout.ms", "heartbeat.interval.ms",
                        "request.timeout.ms", "admin.default.api.timeout.ms")
                .containsEntry("session.timeout.ms", "10000").containsEntry("heartbeat.interval.ms", "1000")
                .containsEntry("request.timeout.ms", "5000").containsEntry("admin.default.api.timeout.ms", "15000");
        assertThat(c.streamsProperties("h:1")).containsEntry("request.timeout.ms", "5000")
                .containsEntry("admin.default.api.timeout.ms", "15000");
        assertThat(c.kafka().get("group.instance.id")).matches("[A-Za-z0-9._:@-]+-[0-9a-f]{8}");
        assertThat(c.serdeConfig()).containsExactly(Map.entry("schema.registry.url", "http://127.0.0.1:8081"));
    }

    @Test
    void queryTokenSeparateOpsListenerAndRegistryTls() {
        Map<String, String> s = new HashMap<>(REQUIRED);
        s.putAll(Map.of("http.token", "api-token-0123456789", "ops.port", "9101", "ops.host", "10.0.0.5",
                "schema.registry.ssl.truststore.location", "/etc/trust.p12", "http.request.timeout.ms", "2000"));
        AggregatorConfig c = AggregatorConfig.from(s);
        assertThat(c.http().apiToken()).isEqualTo("api-token-0123456789");
        assertThat(c.http().separateOps()).isTrue();
        assertThat(c.http().opsHost()).isEqualTo("10.0.0.5");
        assertThat(c.http().limits().requestTimeout()).isEqualTo(Duration.ofMillis(2000));
        assertThat(c.serdeConfig()).containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12");
        assertThat(c.http().toString()).doesNotContain("api-token-0123456789");
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> s = new HashMap<>(REQUIRED);
        s.putAll(Map.of("application.id", "agg-2", "topic.prefix", "hm-", "state.dir", "/var/lib/hm",
                "http.port", "0", "application.server", "agg-2.local:9000", "staleness.factor", "2.5",
                "punctuate.interval.ms", "250", "commit.interval.ms", "50", "partitions", "12"));
        s.putAll(Map.of("replication.factor", "1", "replication.single.copy.allowed", "true",
                "basic.auth.credentials.source", "USER_INFO",
                "basic.auth.user.info", "u:p", "kafka.security.protocol", "SASL_SSL", "http.host", "127.0.0.1"));
        AggregatorConfig c = AggregatorConfig.from(s);
        assertThat(c.applicationId()).isEqualTo("agg-2");
        assertThat(c.topics().healthState()).isEqualTo("hm-health-state");
        assertThat(c.stateDir()).hasToString("/var/lib/hm");
        assertThat(c.httpPort()).isZero();
        assertThat(c.httpHost()).isEqualTo("127.0.0.1");
        assertThat(c.applicationServer()).isEqualTo("agg-2.local:9000");
        assertThat(c.staleness().factor()).isEqualTo(2.5);
        assertThat(c.punctuateInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.partitions()).isEqualTo(12);
        assertThat(c.replication()).isEqualTo(TopicReplication.singleCopy());
        assertThat(c.serdeConfig()).containsEntry("basic.auth.user.info", "u:p")
                .containsEntry("basic.auth.credentials.source", "USER_INFO");
        Properties p = c.streamsProperties("h:1");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(StreamsConfig.APPLICATION_SERVER_CONFIG, "h:1")
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "50")
                .containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1")
                .containsEntry("topic.min.insync.replicas", "1");
    }

    @Test
    void theStatusPageIsOffUnlessAskedForAndReadsTheSharedPageSettings() {
        AggregatorConfig defaults = AggregatorConfig.from(REQUIRED);
        assertThat(defaults.statusPage()).as("status.page.enabled by default").isFalse();
        assertThat(defaults.status()).isEqualTo(StatusSettings.defaults());
        Map<String, String> s = new HashMap<>(REQUIRED);
        s.putAll(Map.of("status.page.enabled", "true", "status.history.size", "0", "status.max.clients", "4",
                "metrics.per.target", "true"));
        AggregatorConfig on = AggregatorConfig.from(s);
        assertThat(on.statusPage()).isTrue();
        assertThat(on.status()).isEqualTo(new StatusSettings(4, 0, true));
        refused("status.page.enabled", "on", "status.page.enabled: on (expected: true or false)");
        refused("status.history.size", "201", "status.history.size: 201 (expected: 0..200)");
    }

    @Test
    void pacedCommitsLeaveKafkaStreamsABackstopWithinTheTransactionTimeout() {
        AggregatorConfig paced = AggregatorConfig.from(withPaced("commit.interval.ms", "100"));
        assertThat(paced.commitPaced()).isTrue();
        assertThat(paced.commitPacerTick()).isEqualTo(Duration.ofMillis(10));
        assertThat(paced.streamsProperties("h:1")).containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
        // Kafka Streams refuses an interval over the producer's transaction timeout (its default for exactly-once: 10 s)
        assertThat(AggregatorConfig.from(withPaced("commit.interval.ms", "5000")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "10000");
        Map<String, String> longer = withPaced("commit.interval.ms", "60000");
        longer.put("kafka.producer.transaction.timeout.ms", "180000");
        assertThat(AggregatorConfig.from(longer).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "180000");
        // never below the interval itself (a timeout below it fails as it did before pacing)
        assertThat(AggregatorConfig.from(withPaced("commit.interval.ms", "20000")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "20000");
        // off by default: Kafka Streams' interval alone
        AggregatorConfig unpaced = AggregatorConfig.from(with("commit.interval.ms", "100"));
        assertThat(unpaced.commitPaced()).isFalse();
        assertThat(unpaced.streamsProperties("h:1")).containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    }

    @Test
    void streamThreadsPollForATenthOfTheCommitIntervalUnlessToldOtherwise() {
        assertThat(AggregatorConfig.from(with("commit.interval.ms", "100")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "10");
        assertThat(AggregatorConfig.from(with("commit.interval.ms", "30000")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "100");
        assertThat(AggregatorConfig.from(with("commit.interval.ms", "10")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "1");
        assertThat(AggregatorConfig.from(with("kafka.poll.ms", "40")).streamsProperties("h:1"))
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "40");
    }

    @Test
    void thePassThroughCannotWeakenExactlyOnce() {
        Properties p = AggregatorConfig.from(with("kafka.processing.guarantee", "at_least_once")).streamsProperties("h:1");
        assertThat(p).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    }

    @Test
    void everyRuleHasAClearMessage() {
        refused("staleness.factor", "0.5", "staleness.factor: 0.5 (expected: 1.0..100.0)");
        refused("staleness.factor", "lots", "staleness.factor: lots (expected: 1.0..100.0)");
        refused("http.port", "70000", "http.port: 70000 (expected: 0..65535)");
        refused("punctuate.interval.ms", "10", "punctuate.interval.ms: 10 (expected: 100..60000)");
        refused("commit.interval.ms", "0", "commit.interval.ms: 0 (expected: 10..60000)");
        refused("commit.on.change", "yes", "commit.on.change: yes (expected: true or false)");
        refused("partitions", "0", "partitions: 0 (expected: 1..10000)");
        refused("replication.factor", "0", "replication.factor: 0 (expected: 1..32)");
        refused("application.id", "a b", "application.id: a b (expected: 1-200 of [A-Za-z0-9._-])");
        refused("topic.prefix", "a/b", "topic.prefix: a/b (expected: 0-200 of [A-Za-z0-9._-])");
        refused("application.server", "nohost", "application.server: nohost (expected: empty or host:port)");
        refused("basic.auth.credentials.source", "SASL", "basic.auth.credentials.source: SASL (expected: URL or USER_INFO)");
        refused("state.dir", " ", "state.dir: \"\" (expected: a directory)");
        refused("staleness", "3", "staleness: unknown setting (expected: a key of docs/CONFIGURATION.md");
    }

    @Test
    void missingRequiredKeysAndSeveralProblemsAreReportedTogether() {
        assertThatThrownBy(() -> AggregatorConfig.from(Map.of("partitions", "-1", "typo.key", "x")))
                .hasMessageContaining("bootstrap.servers: missing (expected: a value, this setting is required)")
                .hasMessageContaining("schema.registry.url: missing")
                .hasMessageContaining("partitions: -1 (expected: 1..10000)")
                .hasMessageContaining("typo.key: unknown setting");
    }
}
