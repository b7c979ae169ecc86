package io.healthmesh.aggregator;

import io.healthmesh.testkit.Await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Two aggregator instances on the real broker: state events, rejected input, and the query API across instances. */
@ExtendWith(KafkaExtension.class)
class AggregatorWorkerIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final List<String> IDS = List.of("api-1", "api-2", "api-3", "api-4", "api-5", "api-6");

    @TempDir
    Path stateDir;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    static Map<String, String> settings(TestKafka kafka, String appId, String prefix, Path stateDir) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("application.id", appId);
        s.put("topic.prefix", prefix);
        s.put("state.dir", stateDir.toString());
        s.put("replication.factor", "1");
        s.put("replication.single.copy.allowed", "true");
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        s.put("partitions", "2");
        s.put("kafka.session.timeout.ms", "6000");
        s.put("kafka.heartbeat.interval.ms", "1000");
        return s;
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GETs until 200 (ownership settles after a rebalance), bounded by {@link #PATIENCE}. */
    private JsonNode getOk(int port, String path) throws IOException {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        HttpResponse<String> ok = Await.value(PATIENCE, () -> {
            try {
                last.set(get(port, path));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return last.get().statusCode() == 200 ? Optional.of(last.get()) : Optional.empty();
        }, () -> path + " answering 200; last: " + last.get().statusCode() + " " + last.get().body());
        return json.readTree(ok.body());
    }

    static void awaitRunning(AggregatorWorker... workers) {
        Await.until(PATIENCE, () -> java.util.Arrays.stream(workers).allMatch(AggregatorWorker::isRunning),
                () -> "workers RUNNING: " + java.util.Arrays.stream(workers).map(AggregatorWorker::state).toList());
    }

    @Test
    void twoInstancesEmitStateEventsRejectBadInputAndAnswerQueriesForEachOther(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "it-" + run + ".";
        Topics topics = new Topics(prefix);
        AggregatorConfig c1 = AggregatorConfig.from(settings(kafka, "agg-" + run, prefix, stateDir.resolve("1")));
        AggregatorConfig c2 = AggregatorConfig.from(settings(kafka, "agg-" + run, prefix, stateDir.resolve("2")));
        try (AggregatorWorker w1 = AggregatorWorker.start(c1);
             AggregatorWorker w2 = AggregatorWorker.start(c2);
             BrokerRecords broker = new BrokerRecords(kafka, topics)) {
            awaitRunning(w1, w2);
            long t = System.currentTimeMillis();
            Map<String, TargetSpec> specs = new HashMap<>();
            for (String id : IDS) {
                TargetSpec spec = TargetSpec.of(id, "api", "10.1.0." + (IDS.indexOf(id) + 1), 8080, Protocol.HTTP)
                        .withRegions(List.of(), QuorumPolicy.MAJORITY, 1);
                specs.put(id, spec);
                broker.define(TargetSpecs.toAvro(spec), t);
            }
            // Definitions are on the broker before any result is sent, as in a deployment (a prober probes only what
            // it read from the targets topic). Sent together, a result could be appended and fetched a moment before
            // its definition (another topic): the aggregator then rejects it as UNKNOWN_TARGET, and with three
            // results per region the target never becomes HEALTHY.
            broker.flush();
            for (String id : IDS) {
                TargetSpec spec = specs.get(id);
                for (int i = 1; i <= 3; i++) {
                    for (String region : List.of("eu", "us")) {
                        broker.result(ProbeResult.newBuilder().setTargetId(id).setGeneration(ProbeFingerprint.of(spec))
                                .setRegion(region).setProberId("p-" + region)
                                .setProtocol(io.healthmesh.schema.Protocol.HTTP).setStartedAtMs(t + i * 1_000L)
                                .setOutcome(ProbeOutcome.SUCCESS).setLatencyMicros(2_000).build(), t + i * 1_000L + 2);
                    }
                }
            }
            byte[] garbage = "not avro".getBytes(StandardCharsets.UTF_8);
            broker.raw(topics.targets(), "api-1".getBytes(StandardCharsets.UTF_8), garbage, t + 10_000);
            broker.flush();

            AvroSerde<TargetHealth> health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
            // a target may say HEALTHY more than once (the second region's verdict changes its breakdown): count
            // targets, not events
            List<ConsumerRecord<String, TargetHealth>> events = broker.readUntil(topics.healthState(), health.deserializer(),
                    read -> read.stream().filter(r -> r.value().getStatus().name().equals("HEALTHY"))
                            .map(ConsumerRecord::key).distinct().count() >= IDS.size(), PATIENCE);
            assertThat(events).filteredOn(r -> r.value().getStatus().name().equals("HEALTHY"))
                    .extracting(ConsumerRecord::key).hasSameElementsAs(IDS);
            List<ConsumerRecord<String, byte[]>> rejected = broker.readUntil(topics.rejected(), BrokerRecords.bytes(),
                    read -> !read.isEmpty(), PATIENCE);
            assertThat(rejected.get(0).value()).isEqualTo(garbage);
            assertThat(new String(rejected.get(0).headers().lastHeader(RejectedHeaders.REASON).value(),
                    StandardCharsets.UTF_8)).isEqualTo("NOT_AVRO_WIRE_FORMAT");

            // both instances answer for every key, whichever owns it
            for (AggregatorWorker w : List.of(w1, w2)) {
                for (String id : IDS) {
                    JsonNode target = getOk(w.httpPort(), "/targets/" + id);
                    assertThat(target.get("status").asText()).isEqualTo("HEALTHY");
                    assertThat(target.get("regions")).hasSize(2);
                    assertThat(target.get("regions").get(0).get("region").asText()).isEqualTo("eu");
                }
                JsonNode group = getOk(w.httpPort(), "/groups/api");
                assertThat(group.get("members").asInt()).isEqualTo(IDS.size());
                assertThat(group.get("failOpen").asBoolean()).isFalse();
                JsonNode routable = getOk(w.httpPort(), "/groups/api/routable");
                assertThat(routable.get("routable")).hasSize(IDS.size());
                JsonNode byGroup = getOk(w.httpPort(), "/targets?group=api");
                assertThat(byGroup.get("targets")).hasSize(IDS.size());
                assertThat(get(w.httpPort(), "/targets/nobody").statusCode()).isEqualTo(404);
                // history: created (DETECTING), six results, HEALTHY at the us region's third; since= survives forwarding
                for (String id : IDS) {
                    JsonNode history = getOk(w.httpPort(), "/targets/" + id + "/history");
                    assertThat(history.get("entries")).hasSize(8);
                    assertThat(history.get("entries").get(0).get("to").asText()).isEqualTo("DETECTING");
                    assertThat(history.get("entries").get(7).get("to").asText()).isEqualTo("HEALTHY");
                    JsonNode recent = getOk(w.httpPort(), "/targets/" + id + "/history?since=" + (t + 2_500));
                    assertThat(recent.get("entries")).extracting(e -> e.get("kind").asText())
                            .containsExactlyInAnyOrder("result", "result", "status");
                }
                assertThat(get(w.httpPort(), "/targets/nobody/history").statusCode()).isEqualTo(404);
                assertThat(get(w.httpPort(), "/targets/api-1/history?since=yesterday").statusCode()).isEqualTo(400);
                assertThat(get(w.httpPort(), "/groups/none/routable").statusCode()).isEqualTo(404);
                assertThat(get(w.httpPort(), "/targets").statusCode()).isEqualTo(400);
                assertThat(get(w.httpPort(), "/readyz").statusCode()).isEqualTo(200);
            }
            String metrics = get(w1.httpPort(), "/metrics").body() + get(w2.httpPort(), "/metrics").body();
            assertThat(metrics).contains("kafka_stream_thread_metrics_process_total")
                    .contains("healthmesh_aggregator_health_events_total")
                    // the name the HealthmeshStateChangesLate rule reads (docker/prometheus)
                    .contains("# TYPE healthmesh_aggregator_status_change_delay_max_seconds gauge")
                    .contains("healthmesh_aggregator_rejected_records_total{reason=\"NOT_AVRO_WIRE_FORMAT\"} 1.0");
            health.close();
        }
    }
}
