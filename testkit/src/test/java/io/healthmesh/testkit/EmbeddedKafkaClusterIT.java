package io.healthmesh.testkit;

import io.healthmesh.embedded.EmbeddedKafkaCluster;
import io.healthmesh.testkit.TopicReads.KeyValue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaClusterIT {

    @Test
    void threeNodesReplicateEveryTopicAndCarryTransactions() throws Exception {
        long stopping;
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(3, Map.of())) {
            assertThat(cluster.size()).isEqualTo(3);
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    cluster.bootstrapServers()))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
                // no replication factor given: the cluster's default puts every partition on every node
                admin.createTopics(List.of(new NewTopic("replicated", Optional.of(3), Optional.empty()))).all().get(30, TimeUnit.SECONDS);
                // created means known to the controller; the broker that answers may learn of it a little later
                TopicDescription topic = CreatedTopics.awaitLed(admin, "replicated", Duration.ofSeconds(30));
                for (TopicPartitionInfo partition : topic.partitions()) {
                    assertThat(partition.replicas()).hasSize(3);
                }
            }

            // exactly-once writes need the transaction state log, which needs two of its three replicas in sync
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "cluster-it");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                producer.initTransactions();
                for (int t = 0; t < 3; t++) {
                    producer.beginTransaction();
                    for (int p = 0; p < 3; p++) {
                        producer.send(new ProducerRecord<>("replicated", p, "t" + t, "p" + p));
                    }
                    producer.commitTransaction();
                }
            }
            List<ConsumerRecord<String, String>> read = TopicReads.readCommitted(cluster.bootstrapServers(),
                    "replicated", new StringDeserializer(), Duration.ofSeconds(30));
            assertThat(read.stream().map(r -> new KeyValue(r.key(), r.value())).toList())
                    .hasSize(9).contains(new KeyValue("t2", "p1"));
            stopping = System.nanoTime();
        }
        // every node stops together: one by one, the last would wait for a quorum already gone
        assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(45));
    }

    @Test
    void oneNodeIsTheSingleBrokersJob() {
        assertThatThrownBy(() -> EmbeddedKafkaCluster.start(1, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodes: 1 (expected: 2..5");
    }
}
