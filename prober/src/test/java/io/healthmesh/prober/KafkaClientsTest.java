package io.healthmesh.prober;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaClientsTest {

    private static ProberConfig config(Map<String, String> extra) {
        Map<String, String> m = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "schema.registry.url", "mem://x", "region", "eu", "prober.id", "p1"));
        m.putAll(extra);
        return ProberConfig.from(m);
    }

    @Test
    void consumerJoinsTheRegionsGroupCooperativelyWithoutAutoCommit() {
        Map<String, Object> props = KafkaClients.consumer(config(Map.of()));

        assertThat(props).containsEntry("group.id", "healthmesh-prober-eu")
                .containsEntry("enable.auto.commit", "false")
                .containsEntry("auto.offset.reset", "earliest")
                .containsEntry("partition.assignment.strategy",
                        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
    }

    @Test
    void producerIsIdempotentWithAllAcksWhateverThePassThroughSays() {
        Map<String, Object> props = KafkaClients.producer(config(Map.of("kafka.acks", "1",
                "kafka.enable.idempotence", "false")));

        assertThat(props).containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("max.block.ms", "1000");
    }

    @Test
    void passThroughGoesToTheClientsThatKnowTheKey() {
        ProberConfig c = config(Map.of("kafka.security.protocol", "SSL", "kafka.session.timeout.ms", "6000",
                "kafka.delivery.timeout.ms", "30000", "kafka.max.block.ms", "200", "kafka.custom.login.key", "v"));

        Map<String, Object> consumer = KafkaClients.consumer(c);
        Map<String, Object> producer = KafkaClients.producer(c);

        assertThat(consumer).containsEntry("security.protocol", "SSL").containsEntry("session.timeout.ms", "6000")
                .containsEntry("custom.login.key", "v").doesNotContainKeys("delivery.timeout.ms", "max.block.ms");
        assertThat(producer).containsEntry("security.protocol", "SSL").containsEntry("delivery.timeout.ms", "30000")
                .containsEntry("max.block.ms", "200").containsEntry("custom.login.key", "v")
                .doesNotContainKey("session.timeout.ms");
    }

    @Test
    void producerBatchesAndCompressesAsThePublishSettingsSay() {
        assertThat(KafkaClients.producer(config(Map.of()))).containsEntry("compression.type",
                        PublishTuning.DEFAULT_COMPRESSION)
                .containsEntry("linger.ms", Integer.toString(PublishTuning.DEFAULT_LINGER_MS))
                .containsEntry("batch.size", Integer.toString(PublishTuning.DEFAULT_BATCH_BYTES));
        assertThat(KafkaClients.producer(config(Map.of("publish.compression", "zstd", "publish.linger.ms", "20",
                "publish.batch.bytes", "131072")))).containsEntry("compression.type", "zstd")
                .containsEntry("linger.ms", "20").containsEntry("batch.size", "131072");
        // a kafka.* pass-through of the same producer key wins, as before these settings existed
        assertThat(KafkaClients.producer(config(Map.of("publish.linger.ms", "20", "kafka.linger.ms", "50"))))
                .containsEntry("linger.ms", "50");
    }

    @Test
    void theConsumerIsAStaticMemberNamedByTheProberIdUnlessToldOtherwise() {
        assertThat(KafkaClients.consumer(config(Map.of("prober.id", "edge-7"))))
                .containsEntry("group.instance.id", "edge-7").containsEntry("session.timeout.ms", "10000");
        assertThat(KafkaClients.consumer(config(Map.of("prober.id", "edge-7", "group.instance.id", ""))))
                .doesNotContainKey("group.instance.id");
        assertThat(KafkaClients.consumer(config(Map.of("prober.id", "edge-7", "group.instance.id", "pod-3"))))
                .containsEntry("group.instance.id", "pod-3");
        // the producer and the admin client are no group members
        assertThat(KafkaClients.producer(config(Map.of("prober.id", "edge-7")))).doesNotContainKey("group.instance.id");
        assertThat(KafkaClients.admin(config(Map.of("prober.id", "edge-7")))).doesNotContainKey("group.instance.id");
    }

    @Test
    void theAdminApiTimeoutIsNeverShorterThanARequestTimeoutThePassThroughRaises() {
        assertThat(KafkaClients.admin(config(Map.of())))
                .containsEntry("request.timeout.ms", "5000").containsEntry("default.api.timeout.ms", "10000");
        // the admin client refuses to start with default.api.timeout.ms < request.timeout.ms
        assertThat(KafkaClients.admin(config(Map.of("kafka.request.timeout.ms", "30000"))))
                .containsEntry("request.timeout.ms", "30000").containsEntry("default.api.timeout.ms", "30000");
    }

    @Test
    void newGroupProtocolGetsNoClassicAssignor() {
        assertThat(KafkaClients.consumer(config(Map.of("kafka.group.protocol", "consumer"))))
                .doesNotContainKey("partition.assignment.strategy");
    }
}
