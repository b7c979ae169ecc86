package io.healthmesh.cli.watch;

import io.healthmesh.cli.AsyncCliRun;
import io.healthmesh.cli.CliRun;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code watch} against a real broker: the state already there first, then each change as it is written. */
@ExtendWith(KafkaExtension.class)
class WatchCommandIT {

    private final TestKafka kafka;
    private Topics topics;

    WatchCommandIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeEach
    void createTopics() {
        topics = new Topics(kafka.uniqueTopic("watch") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 3, TopicReplication.singleCopy());
        }
    }

    private static TargetHealth target(String id, String group, HealthStatus previous, HealthStatus now,
                                       ProbeOutcome reason) {
        long t = System.currentTimeMillis();
        return TargetHealth.newBuilder().setTargetId(id).setGroup(group).setStatus(now).setPreviousStatus(previous)
                .setSinceMs(t).setReason(reason).setGeneration(7L).setUpdatedAtMs(t).build();
    }

    private static GroupHealth group(String id, boolean failOpen, List<String> routable, int members) {
        return GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen).setMembers(members)
                .setHealthy(failOpen ? 0 : routable.size()).setUnhealthy(failOpen ? members : 0).setDetecting(0)
                .setDisabled(0).setRoutable(routable).setUpdatedAtMs(System.currentTimeMillis()).build();
    }

    private <T extends SpecificRecord> void produce(Class<T> type, String topic, String key, T value) {
        try (AvroSerde<T> serde = AvroSerde.forValues(type, kafka.serdeConfig());
             KafkaProducer<String, T> producer = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                     new StringSerializer(), serde.serializer())) {
            producer.send(new ProducerRecord<>(topic, key, value));
            producer.flush();
        }
    }

    private String[] args(String... extra) {
        String[] common = {"watch", "--bootstrap-server", kafka.bootstrapServers(), "--schema-registry",
                kafka.schemaRegistryUrl(), "--topic-prefix", topics.prefix()};
        String[] all = new String[common.length + extra.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(extra, 0, all, common.length, extra.length);
        return all;
    }

    @Test
    void currentStateFirstThenEveryChange() throws Exception {
        produce(TargetHealth.class, topics.healthState(), "a",
                target("a", "pool", HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS));
        produce(TargetHealth.class, topics.healthState(), "b",
                target("b", "other", HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS));
        produce(GroupHealth.class, topics.groupState(), "pool", group("pool", false, List.of("a"), 1));

        AsyncCliRun watch = AsyncCliRun.start(args("--group", "pool", "--duration", "60s"));
        watch.awaitOut("watching for changes", Duration.ofSeconds(30));
        assertThat(watch.out()).contains("target a ", "= HEALTHY (current", "group  pool", "failOpen false (current)")
                .doesNotContain("target b ");

        produce(TargetHealth.class, topics.healthState(), "a",
                target("a", "pool", HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, ProbeOutcome.CONNECTION_REFUSED));
        produce(GroupHealth.class, topics.groupState(), "pool", group("pool", true, List.of("a"), 1));
        watch.awaitOut("HEALTHY -> UNHEALTHY  reason CONNECTION_REFUSED", Duration.ofSeconds(30));
        watch.awaitOut("failOpen false -> true", Duration.ofSeconds(30));
        String out = watch.out();
        assertThat(out.indexOf("= HEALTHY (current")).isLessThan(out.indexOf("watching for changes"));
        assertThat(out.indexOf("watching for changes")).isLessThan(out.indexOf("HEALTHY -> UNHEALTHY"));
        assertThat(watch.stop(Duration.ofSeconds(30))).as("stopped as Ctrl-C would, before its --duration")
                .isZero();
    }

    @Test
    void jsonLinesAndABoundedDuration() throws Exception {
        produce(TargetHealth.class, topics.healthState(), "a",
                target("a", "pool", HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS));
        AsyncCliRun watch = AsyncCliRun.start(args("--json", "--duration", "3s"));
        assertThat(watch.awaitExit(Duration.ofSeconds(60))).isZero();
        assertThat(watch.out().lines().toList()).singleElement().satisfies(line ->
                assertThat(line).startsWith("{\"targetId\":\"a\"").contains("\"kind\":\"target\"", "\"current\":true"));
    }

    @Test
    void missingStateTopicIsARuntimeFailure() {
        CliRun run = CliRun.of("watch", "--bootstrap-server", kafka.bootstrapServers(), "--schema-registry",
                kafka.schemaRegistryUrl(), "--topic-prefix", kafka.uniqueTopic("absent") + ".", "--duration", "5s");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("does not exist");
    }

    @Test
    void unknownFlagIsBadUsage() {
        CliRun run = CliRun.of("watch", "--colour");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--colour'", "Usage: healthmesh watch");
    }
}
