package io.healthmesh.cli.targets;

import io.healthmesh.cli.CliRun;
import io.healthmesh.cli.kafka.CompactedTopicReader;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicReads;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code targets apply/list/get/delete} against a real broker and registry. */
@ExtendWith(KafkaExtension.class)
class TargetsCommandIT {

    private static final Path EXAMPLES = Path.of("..", "examples", "targets.yaml");

    private final TestKafka kafka;
    private Topics topics;

    TargetsCommandIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeEach
    void createTopics() {
        topics = new Topics(kafka.uniqueTopic("it") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());
        }
    }

    private CliRun run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-server", kafka.bootstrapServers(), "--schema-registry", kafka.schemaRegistryUrl(),
                "--topic-prefix", topics.prefix()));
        return CliRun.of(all.toArray(String[]::new));
    }

    private Map<String, byte[]> topicContents() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return CompactedTopicReader.readToEnd(props, topics.targets(), Duration.ofSeconds(30));
    }

    @Test
    void applyListGetDeleteRoundTrip() {
        CliRun apply = run("targets", "apply", "-f", EXAMPLES.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.out()).contains("shop-web-1", "created",
                "applied 14 target(s) in " + topics.targets() + ": 14 created, 0 updated, 0 unchanged");

        // what reached the topic decodes with a plain serde, keyed by id
        Map<String, byte[]> raw = topicContents();
        assertThat(raw).containsOnlyKeys("shop-web-1", "shop-api-1", "shop-db-1", "shop-cache-1", "dns-1",
                "syslog-1", "orders-grpc-1", "gateway-1", "ns-1", "shop-web-2", "clb-web-1", "edgeone-origin-1", "nlb-udp-1",
                "ga-endpoint-1");
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            TargetDefinition db = serde.deserializer().deserialize(topics.targets(), raw.get("shop-db-1"));
            assertThat(db.getPort()).isEqualTo(5432);
            assertThat(db.getIntervalMs()).isEqualTo(2000);
            TargetDefinition ga = serde.deserializer().deserialize(topics.targets(), raw.get("ga-endpoint-1"));
            assertThat(ga.getProfile()).isEqualTo(io.healthmesh.schema.TargetProfile.ALIBABA_GA);
            assertThat(ga.getTimeoutMs()).as("GA's fixed timeout, filled from the profile").isEqualTo(3000);
            assertThat(ga.getIntervalMs()).isEqualTo(2000);
        }

        CliRun list = run("targets", "list");
        assertThat(list.exitCode()).isZero();
        assertThat(list.out()).contains("shop-db-1", "gateway-1", "14 target(s)");
        assertThat(run("targets", "list", "--group", "shop-db").out()).contains("shop-db-1", "shop-cache-1",
                "2 target(s)").doesNotContain("gateway-1");

        CliRun again = run("targets", "apply", "-f", EXAMPLES.toString());
        assertThat(again.out()).contains("14 unchanged");
    }

    @Test
    void aStoredHttpsDefinitionOfTheOldDefaultIsNamedUntilItIsAppliedAgain(@TempDir Path dir) throws Exception {
        // what an older writer left: tlsVerify false (its default then), no tls section
        writeRaw(TargetDefinition.newBuilder().setId("old-https").setAddress("203.0.113.7").setPort(443)
                .setProtocol(io.healthmesh.schema.Protocol.HTTPS)
                .setHttp(io.healthmesh.schema.HttpCheck.newBuilder().build()).build());

        CliRun list = run("targets", "list");
        assertThat(list.exitCode()).isZero();
        assertThat(list.err()).contains("warning: 1 stored HTTPS definition(s) do not verify certificates",
                "docs/operations/tls-verification.md): old-https");

        // taken back as it is stored, the old form is refused, saying what to write
        Path old = Files.writeString(dir.resolve("old.yaml"), run("targets", "get", "old-https").out());
        CliRun reapply = run("targets", "apply", "-f", old.toString());
        assertThat(reapply.exitCode()).isEqualTo(2);
        assertThat(reapply.err()).contains("target old-https: http.tlsVerify: false (expected: true or absent");

        // an apply of other targets leaves it as it is and names it; what it writes states verification
        Path other = Files.writeString(dir.resolve("other.yaml"),
                "- {id: new-https, address: 203.0.113.8, port: 443, protocol: HTTPS}\n");
        CliRun apply = run("targets", "apply", "-f", other.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.err()).contains("1 stored HTTPS definition(s)", ": old-https").doesNotContain("new-https");
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            TargetDefinition written = serde.deserializer().deserialize(topics.targets(),
                    topicContents().get("new-https"));
            assertThat(written.getHttp().getTlsVerify()).isTrue();
        }

        // saying insecureSkipVerify is the way to keep it unverified; then nothing is left to warn about
        Path skip = Files.writeString(dir.resolve("skip.yaml"), "- {id: old-https, address: 203.0.113.7, port: 443,"
                + " protocol: HTTPS, tls: {insecureSkipVerify: true}}\n");
        CliRun fixed = run("targets", "apply", "-f", skip.toString());
        assertThat(fixed.exitCode()).as(fixed.err()).isZero();
        assertThat(fixed.out()).contains("old-https", "updated");
        assertThat(fixed.err()).doesNotContain("warning");
        assertThat(run("targets", "list").err()).doesNotContain("warning");
    }

    private void writeRaw(TargetDefinition definition) throws Exception {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(),
                     new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topics.targets(), definition.getId(),
                    serde.serializer().serialize(topics.targets(), definition))).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aLargeApplyPrintsTheSummaryAndItsProgressAndEveryRecordIsAcknowledged() {
        CliRun apply = run("targets", "apply", "-f", EXAMPLES.toString(), "--lines", "5");
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.out()).doesNotContain("shop-web-1")
                .contains("applied 14 target(s) in " + topics.targets() + ": 14 created, 0 updated, 0 unchanged");
        assertThat(apply.err()).contains("wrote and had acknowledged 14 records of " + topics.targets());
        assertThat(topicContents()).hasSize(14);
    }

    /** {@code count} TCP targets {@code f-0, f-1, ...} probed every {@code intervalMs}, as a JSON list. */
    private static Path fleet(Path dir, int count, int intervalMs) throws IOException {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            json.append(i == 0 ? "" : ",\n").append("{\"id\": \"f-").append(i).append("\", \"address\": \"192.0.2.")
                    .append(i % 250 + 1).append("\", \"protocol\": \"TCP\", \"port\": 80, \"intervalMs\": ")
                    .append(intervalMs).append('}');
        }
        return Files.writeString(dir.resolve("fleet-" + intervalMs + ".json"), json.append(']'));
    }

    @Test
    void aFleetAppliedTwiceIsWrittenWholeInFileOrderPerPartition(@TempDir Path dir) throws IOException {
        int count = 3_000;
        CliRun first = run("targets", "apply", "-f", fleet(dir, count, 5_000).toString(), "--lines", "0");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains(count + " created, 0 updated, 0 unchanged");
        assertThat(first.err()).contains("wrote and had acknowledged 3,000 records of " + topics.targets());
        CliRun second = run("targets", "apply", "-f", fleet(dir, count, 7_000).toString(), "--lines", "0");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.out()).contains("0 created, " + count + " updated, 0 unchanged");

        // every definition twice in the log, and in each partition the file's order, first apply then second
        Map<Integer, List<String>> keysByPartition = new java.util.TreeMap<>();
        for (var r : TopicReads.readCommitted(kafka.bootstrapServers(), topics.targets(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(), Duration.ofSeconds(30))) {
            keysByPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.key());
        }
        int written = 0;
        for (List<String> keys : keysByPartition.values()) {
            List<String> once = keys.stream().distinct()
                    .sorted(java.util.Comparator.comparingInt(k -> Integer.parseInt(k.substring(2)))).toList();
            List<String> twice = new ArrayList<>(once);
            twice.addAll(once);
            assertThat(keys).isEqualTo(twice);
            written += keys.size();
        }
        assertThat(written).isEqualTo(2 * count);
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            Map<String, byte[]> latest = topicContents();
            assertThat(latest).hasSize(count);
            latest.forEach((id, bytes) -> assertThat(serde.deserializer().deserialize(topics.targets(), bytes)
                    .getIntervalMs()).as(id).isEqualTo(7_000));
        }
    }

    @Test
    void manyProblemsArePrintedUpToAHundredWithTheirCount(@TempDir Path dir) throws IOException {
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            yaml.append("- {id: bad-").append(i).append(", address: 10.0.0.1, port: 0, protocol: TCP}\n");
        }
        Path file = Files.writeString(dir.resolve("bad.yaml"), yaml);
        CliRun run = run("targets", "apply", "-f", file.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("150 problem(s) found; nothing was applied (the first 100 below)",
                "target bad-99: port").doesNotContain("target bad-100:");
    }

    @Test
    void getPrintsWhatApplyTakesBack(@TempDir Path dir) throws IOException {
        assertThat(run("targets", "apply", "-f", EXAMPLES.toString()).exitCode()).isZero();
        CliRun get = run("targets", "get", "dns-1");
        assertThat(get.exitCode()).isZero();
        assertThat(get.out()).contains("id: dns-1", "mode: PAYLOAD", "request: healthmesh-ping");

        Path file = Files.writeString(dir.resolve("dns.yaml"), get.out());
        CliRun reapply = run("targets", "apply", "-f", file.toString());
        assertThat(reapply.out()).as(reapply.err()).contains("dns-1", "unchanged");

        Path slower = Files.writeString(dir.resolve("slower.yaml"), get.out().replace("intervalMs: 3000", "intervalMs: 6000"));
        assertThat(run("targets", "apply", "-f", slower.toString()).out())
                .contains("updated (same probe: counters kept)");
        Path moved = Files.writeString(dir.resolve("moved.yaml"), get.out().replace("port: 53", "port: 5353"));
        assertThat(run("targets", "apply", "-f", moved.toString()).out())
                .contains("updated (probe changed: back to DETECTING)");

        CliRun json = run("targets", "get", "dns-1", "-o", "json");
        assertThat(json.out()).contains("\"id\" : \"dns-1\"");
    }

    @Test
    void invalidFileIsRejectedWholeAndNothingIsProduced(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), """
                - {id: good, address: 10.0.0.1, protocol: TCP, port: 22}
                - {id: bad-1, address: 10.0.0.2, protocol: HTTP, intervalMs: 50, http: {path: x}}
                - {id: bad-2, address: 10.0.0.3, protocol: UDP, port: 53, udp: {mode: PAYLOAD}, colour: red}
                """);
        CliRun run = run("targets", "apply", "-f", file.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(
                "error: 5 problem(s) found; nothing was applied",
                file + ": target bad-1: intervalMs: 50 (expected: 100..600000)",
                file + ": target bad-1: http.path: \"x\"",
                file + ": target bad-2: colour: unknown field",
                file + ": target bad-2: udp.request: null (expected: 1..500 characters in PAYLOAD mode)",
                file + ": target bad-2: udp.expectedResponse: null (expected: 1..500 characters in PAYLOAD mode)");
        assertThat(run.out()).isEmpty();
        assertThat(topicContents()).isEmpty();
    }

    @Test
    void deleteWritesTombstonesAndRefusesUnknownIds() {
        assertThat(run("targets", "apply", "-f", EXAMPLES.toString()).exitCode()).isZero();
        CliRun unknown = run("targets", "delete", "dns-1", "nope");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("nope: not in " + topics.targets());
        assertThat(topicContents()).containsKey("dns-1");

        CliRun delete = run("targets", "delete", "dns-1", "gateway-1");
        assertThat(delete.exitCode()).isZero();
        assertThat(delete.out()).contains("deleted 2 target(s)");
        assertThat(topicContents()).doesNotContainKeys("dns-1", "gateway-1").hasSize(12);
        assertThat(run("targets", "list").out()).contains("12 target(s)").doesNotContain("gateway-1");

        assertThat(run("targets", "delete", "nope", "--ignore-missing").exitCode()).isZero();
    }

    @Test
    void getOfAnUnknownIdIsBadInput() {
        CliRun run = run("targets", "get", "nope");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("error: no target nope in " + topics.targets());
    }

    @Test
    void missingTopicIsARuntimeFailureThatSaysWhatToDo() {
        CliRun run = CliRun.of("targets", "apply", "-f", EXAMPLES.toString(), "--bootstrap-server",
                kafka.bootstrapServers(), "--schema-registry", kafka.schemaRegistryUrl(), "--topic-prefix",
                kafka.uniqueTopic("absent") + ".");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("does not exist").contains("healthmesh demo");
    }
}
