package io.healthmesh.prober;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.healthmesh.testkit.farm.TargetFarm;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shedding prober leaves its group: its targets move to the other prober of the region, it reports not ready and
 * counts the shed; when it recovers it joins again and takes a share back. (What makes a prober shed, the self
 * monitor's verdict, is tested in {@code SelfHealthTest}; here the worker is drained by hand the same way.)
 */
@ExtendWith(KafkaExtension.class)
class ProberSheddingIT {

    private static final int TARGETS = 60;

    @Test
    @Timeout(90)
    void aSheddingProberGivesItsTargetsToTheOtherAndTakesAShareBackWhenHealthy(TestKafka kafka) throws Exception {
        Topics topics = new Topics("shed-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), Topics.DEFAULT_PARTITIONS, true);
        kafka.createTopic(topics.probeResults(), Topics.DEFAULT_PARTITIONS, false);
        kafka.createTopic(topics.rejected(), 1, false);
        String region = "shed-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(2)) {
            Set<String> all = publish(kafka, topics, farm);
            try (ProberWorker a = ProberWorker.start(ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "A")));
                 ProberWorker b = ProberWorker.start(ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "B")))) {
                Await.until(Duration.ofSeconds(40), () -> a.ready() && b.ready() && !a.probedTargets().isEmpty()
                                && !b.probedTargets().isEmpty() && union(a, b).equals(all),
                        () -> "A owns " + a.probedTargets().size() + ", B owns " + b.probedTargets().size());

                a.shed(true);
                Await.until(Duration.ofSeconds(30), () -> a.probedTargets().isEmpty() && b.probedTargets().equals(all)
                                && b.ready(),
                        () -> "after A sheds: A owns " + a.probedTargets().size() + ", B owns " + b.probedTargets().size());
                assertThat(a.ready()).isFalse();
                assertThat(status(a, "/readyz")).isEqualTo(503);
                Await.holdsFor(Duration.ofMillis(1_500), () -> a.probedTargets().isEmpty(),
                        () -> "A took targets back while shedding: " + a.probedTargets());

                a.shed(false);
                Await.until(Duration.ofSeconds(40), () -> a.ready() && b.ready() && !a.probedTargets().isEmpty()
                                && union(a, b).equals(all),
                        () -> "after A recovers: A owns " + a.probedTargets().size() + ", B owns " + b.probedTargets().size());
                assertThat(status(a, "/readyz")).isEqualTo(200);
                String metrics = body(a, "/metrics");
                assertThat(metrics).contains("healthmesh_prober_timer_lag_seconds")
                        .contains("healthmesh_prober_event_loop_lag_seconds")
                        .contains("healthmesh_prober_cpu_steal_ratio")
                        .contains("healthmesh_prober_overloaded 0.0")
                        .contains("healthmesh_prober_inconclusive_total{cause=\"late-start\"}");
            }
        }
    }

    @Test
    @Timeout(90)
    void aProberAloneInItsRegionKeepsItsTargetsShedsOnceAPeerJoinsAndTakesThemBackWhenThePeerStops(TestKafka kafka) throws Exception {
        Topics topics = new Topics("alone-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), Topics.DEFAULT_PARTITIONS, true);
        kafka.createTopic(topics.probeResults(), Topics.DEFAULT_PARTITIONS, false);
        kafka.createTopic(topics.rejected(), 1, false);
        String region = "alone-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(2)) {
            Set<String> all = publish(kafka, topics, farm);
            try (ProberWorker a = ProberWorker.start(ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "A")))) {
                Await.until(Duration.ofSeconds(40), () -> a.ready() && a.probedTargets().equals(all),
                        () -> "A owns " + a.probedTargets().size());

                a.shed(true);
                Await.until(Duration.ofSeconds(20), () -> metricsOrEmpty(a).contains("healthmesh_prober_shed_held 1.0"),
                        () -> "A never said it holds its targets");
                assertThat(a.probedTargets()).as("leaving would leave every target unprobed").isEqualTo(all);
                assertThat(a.ready()).isTrue();

                try (ProberWorker b = ProberWorker.start(ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "B")))) {
                    // A asks again every few seconds; once B is in the group, A leaves and B takes everything
                    Await.until(Duration.ofSeconds(60), () -> a.probedTargets().isEmpty() && b.probedTargets().equals(all)
                                    && b.ready(),
                            () -> "after B joined: A owns " + a.probedTargets().size() + ", B owns " + b.probedTargets().size());
                    assertThat(body(a, "/metrics")).contains("healthmesh_prober_shed_held 0.0");
                    assertThat(status(a, "/readyz")).isEqualTo(503);
                }
                // B is gone and A still overloaded: shedding must not leave the region without a prober
                Await.until(Duration.ofSeconds(40), () -> a.probedTargets().equals(all) && a.ready(),
                        () -> "after B stopped: A owns " + a.probedTargets().size());
                assertThat(body(a, "/metrics")).contains("healthmesh_prober_shed_held 1.0");
            }
        }
    }

    private static Set<String> publish(TestKafka kafka, Topics topics, TargetFarm farm) throws Exception {
        Set<String> ids = new HashSet<>();
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
        try (KafkaProducer<String, TargetDefinition> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), serde.serializer())) {
            for (int i = 0; i < TARGETS; i++) {
                InetSocketAddress to = farm.targets().get(i % farm.targets().size()).socketAddress();
                String id = String.format("shed-%03d", i);
                TargetSpec spec = TargetSpec.of(id, "pool", to.getAddress().getHostAddress(), to.getPort(), Protocol.TCP)
                        .withTiming(1_000, 900);
                producer.send(new ProducerRecord<>(topics.targets(), id, TargetSpecs.toAvro(spec))).get();
                ids.add(id);
            }
        }
        return ids;
    }

    private static Set<String> union(ProberWorker a, ProberWorker b) {
        Set<String> u = new HashSet<>(a.probedTargets());
        u.addAll(b.probedTargets());
        return u;
    }

    private static int status(ProberWorker worker, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + worker.opsPort()
                + path)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static String metricsOrEmpty(ProberWorker worker) {
        try {
            return body(worker, "/metrics");
        } catch (Exception e) {
            return "";
        }
    }

    private static String body(ProberWorker worker, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + worker.opsPort()
                + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
