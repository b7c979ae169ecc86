package io.healthmesh.bench.run;

import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The aggregator-throughput phase times only the results it produces: the backlog earlier phases left in the
 * results topic (millions in a full run, produced while the aggregator was stopped) is skipped first.
 */
@ExtendWith(KafkaExtension.class)
class GroupLagIT {

    @Test
    void aStoppedGroupSkipsTheBacklogAndThenCountsOnlyWhatComesAfter(TestKafka kafka) throws Exception {
        String topic = kafka.uniqueTopic("lag");
        kafka.createTopic(topic, 3, false);
        String group = "lag-group-" + topic;
        produce(kafka, topic, 3, 0, 10);
        commitFirstRecordOfPartitionZero(kafka, topic, group);
        try (Admin admin = kafka.admin()) {
            assertThat(GroupLag.lag(admin, group, topic)).isEqualTo(9);

            assertThat(GroupLag.skipToEnd(admin, group, topic, Duration.ofSeconds(10))).isEqualTo(9);
            assertThat(GroupLag.lag(admin, group, topic)).isZero();
            assertThat(GroupLag.skipToEnd(admin, group, topic, Duration.ofSeconds(10))).isZero();

            produce(kafka, topic, 3, 10, 4);
            assertThat(GroupLag.lag(admin, group, topic)).isEqualTo(4);
        }
    }

    @Test
    void aGroupThatNeverCommittedSkipsTheWholeTopic(TestKafka kafka) throws Exception {
        String topic = kafka.uniqueTopic("lag-new");
        kafka.createTopic(topic, 2, false);
        String group = "never-committed-" + topic;
        produce(kafka, topic, 2, 0, 7);
        try (Admin admin = kafka.admin()) {
            assertThat(GroupLag.lag(admin, group, topic)).isEqualTo(7);
            assertThat(GroupLag.skipToEnd(admin, group, topic, Duration.ofSeconds(10))).isEqualTo(7);
            assertThat(GroupLag.lag(admin, group, topic)).isZero();
        }
    }

    /** Records {@code from} to {@code from + count - 1}, round robin over the partitions. */
    private static void produce(TestKafka kafka, String topic, int partitions, int from, int count)
            throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            for (int n = from; n < from + count; n++) {
                producer.send(new ProducerRecord<>(topic, n % partitions, "k" + n, "v" + n)).get(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A consumer of the group that read one record of partition 0 and stopped, leaving the group. */
    private static void commitFirstRecordOfPartitionZero(TestKafka kafka, String topic, String group) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(java.util.List.of(topic));
            while (consumer.assignment().isEmpty()) {
                consumer.poll(Duration.ofMillis(100));
            }
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)));
        }
    }
}
