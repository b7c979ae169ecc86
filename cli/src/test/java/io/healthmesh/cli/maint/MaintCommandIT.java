package io.healthmesh.cli.maint;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.cli.CliRun;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.MaintenanceMode;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * From {@code maint start} to the state event on a real broker and aggregator: a target of the group gets an event
 * carrying the window (DRAIN, its id, its end) within seconds, {@code maint list} shows it active, and
 * {@code maint end} brings an event without it; the group's own event carries the window and loses it likewise (it
 * holds the group's fail-open alert). Bad input is refused before anything is written.
 */
@ExtendWith(KafkaExtension.class)
class MaintCommandIT {

    private static final Duration SOON = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void startListEndReachTheStateEvents(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Topics topics = new Topics("maint-" + run + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        Path file = dir.resolve("targets.yaml");
        Files.writeString(file, """
                targets:
                  - id: web-1
                    group: web
                    address: 10.9.0.1
                    port: 80
                    protocol: TCP
                  - id: db-1
                    group: db
                    address: 10.9.0.2
                    port: 5432
                    protocol: TCP
                """);
        Map<String, String> agg = new HashMap<>();
        agg.put("bootstrap.servers", kafka.bootstrapServers());
        agg.put("schema.registry.url", kafka.schemaRegistryUrl());
        agg.put("application.id", "maint-" + run);
        agg.put("topic.prefix", topics.prefix());
        agg.put("state.dir", dir.resolve("state").toString());
        agg.put("replication.factor", "1");
        agg.put("replication.single.copy.allowed", "true");
        agg.put("http.host", "127.0.0.1");
        agg.put("http.port", "0");
        agg.put("partitions", "2");
        agg.put("punctuate.interval.ms", "200");
        agg.put("commit.interval.ms", "200");
        try (AvroSerde<TargetHealth> serde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
             TopicRecorder<TargetHealth> health = new TopicRecorder<>(kafka.bootstrapServers(), topics.healthState(),
                     serde.deserializer());
             AvroSerde<GroupHealth> groupSerde = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig());
             TopicRecorder<GroupHealth> groups = new TopicRecorder<>(kafka.bootstrapServers(), topics.groupState(),
                     groupSerde.deserializer());
             AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(agg))) {
            CliRun apply = run(kafka, topics, "targets", "apply", "-f", file.toString());
            assertThat(apply.exitCode()).as(apply.err()).isZero();
            Await.until(SOON, () -> !health.of("web-1").isEmpty() && !health.of("db-1").isEmpty(),
                    () -> "first events of web-1 and db-1: " + health.all());

            CliRun bad = run(kafka, topics, "maint", "start", "--group", "web", "--target", "web-1", "--for", "5s",
                    "--reason", "");
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("exactly one of --target, --group, --label")
                    .contains("--for: PT5S (expected: 1 minute to 30 days)");

            CliRun badStart = run(kafka, topics, "maint", "start", "--target", "web-1", "--for", "30m", "--at",
                    "tomorrow", "--reason", "r");
            assertThat(badStart.exitCode()).isEqualTo(2);
            assertThat(badStart.err()).contains("--at: tomorrow (expected: an instant with its offset");
            CliRun past = run(kafka, topics, "maint", "start", "--target", "web-1", "--for", "30m", "--at",
                    "2020-01-01T00:00:00Z", "--reason", "r");
            assertThat(past.exitCode()).isEqualTo(2);
            assertThat(past.err()).contains("--at: 2020-01-01T00:00:00Z is in the past");

            // planned for later: listed as scheduled, its id named after its start; no event carries it yet
            long before = System.currentTimeMillis();
            CliRun planned = run(kafka, topics, "maint", "start", "--target", "db-1", "--for", "1h", "--at", "+2h",
                    "--reason", "disk swap tonight");
            assertThat(planned.exitCode()).as(planned.err()).isZero();
            String plannedId = planned.out().strip();
            assertThat(plannedId).isGreaterThan(MaintStartCommand.newId(before + Duration.ofMinutes(119).toMillis()));

            CliRun start = run(kafka, topics, "maint", "start", "--group", "web", "--for", "30m", "--drain",
                    "--reason", "switch firmware");
            assertThat(start.exitCode()).as(start.err()).isZero();
            String id = start.out().strip();
            assertThat(id).matches("m-\\d{8}t\\d{6}-[a-z0-9]{4}");

            TopicRecorder.Received<TargetHealth> draining = Await.value(SOON, () -> health.first("web-1",
                    e -> e != null && e.getMaintenance() != null), () -> "a draining event of web-1: "
                    + health.of("web-1"));
            assertThat(draining.value().getMaintenance().getId()).isEqualTo(id);
            assertThat(draining.value().getMaintenance().getMode()).isEqualTo(MaintenanceMode.DRAIN);
            assertThat(draining.value().getMaintenance().getUntilMs() - draining.value().getMaintenance().getStartMs())
                    .isEqualTo(Duration.ofMinutes(30).toMillis());
            assertThat(health.of("db-1")).as("another group's target is not covered, nor by a window not begun")
                    .allMatch(r -> r.value().getMaintenance() == null);
            TopicRecorder.Received<GroupHealth> groupHeld = Await.value(SOON, () -> groups.first("web",
                    e -> e != null && e.getMaintenance() != null), () -> "web's event under the window: "
                    + groups.of("web"));
            assertThat(groupHeld.value().getMaintenance().getId()).isEqualTo(id);
            assertThat(groups.of("db")).allMatch(r -> r.value().getMaintenance() == null);

            CliRun list = run(kafka, topics, "maint", "list");
            assertThat(list.exitCode()).as(list.err()).isZero();
            assertThat(list.out()).contains(id, "DRAIN", "active", "group=web", "switch firmware");
            assertThat(list.out().lines().filter(l -> l.contains(plannedId)).findFirst().orElseThrow())
                    .contains("scheduled", "target=db-1", "disk swap tonight");

            CliRun end = run(kafka, topics, "maint", "end", id);
            assertThat(end.exitCode()).as(end.err()).isZero();
            Await.until(SOON, () -> {
                List<TopicRecorder.Received<TargetHealth>> events = health.of("web-1");
                return events.get(events.size() - 1).value().getMaintenance() == null
                        && events.indexOf(draining) < events.size() - 1;
            }, () -> "an event of web-1 without the window: " + health.of("web-1"));
            Await.until(SOON, () -> {
                List<TopicRecorder.Received<GroupHealth>> events = groups.of("web");
                return events.get(events.size() - 1).value().getMaintenance() == null
                        && events.indexOf(groupHeld) < events.size() - 1;
            }, () -> "an event of web without the window: " + groups.of("web"));

            CliRun unknown = run(kafka, topics, "maint", "end", id);
            assertThat(unknown.exitCode()).isEqualTo(2);
            assertThat(unknown.err()).contains(id + ": not in " + topics.maintenance());
        }
    }

    private static CliRun run(TestKafka kafka, Topics topics, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-server", kafka.bootstrapServers(), "--schema-registry",
                kafka.schemaRegistryUrl(), "--topic-prefix", topics.prefix()));
        return CliRun.of(all.toArray(String[]::new));
    }
}
