package io.healthmesh.contract.read;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.embedded.FreePorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole-topic reader never gives up while it is open: started before its broker exists, it retries Kafka's
 * timeouts with a backoff and reads once the broker is there; a record whose handling throws is skipped, and the
 * records after it are read.
 */
class CompactedTopicReaderIT {

    @Test
    void aReaderStartedBeforeItsBrokerReadsOnceTheBrokerIsUpAndSkipsARecordItsHandlerRejects() throws Exception {
        int port = FreePorts.one();
        String bootstrap = "127.0.0.1:" + port;
        List<String> read = new CopyOnWriteArrayList<>();
        CompactedTopicReader.Handler handler = new CompactedTopicReader.Handler() {
            @Override
            public void record(ConsumerRecord<byte[], byte[]> r) {
                String value = new String(r.value(), StandardCharsets.UTF_8);
                if (value.equals("bad")) {
                    throw new IllegalStateException("a record this handler cannot apply");
                }
                read.add(value);
            }

            @Override
            public void polled(boolean caughtUp) {
            }
        };
        Map<String, Object> kafka = Map.of("bootstrap.servers", bootstrap);
        try (CompactedTopicReader reader = CompactedTopicReader.start("reader-it", kafka, List.of("late"), handler)) {
            // nothing listens yet: the metadata call times out, and the reader says it is waiting instead of stopping
            await(Duration.ofSeconds(40), () -> reader.waitingFor() != null, "the reader to report a Kafka failure");
            assertThat(reader.waitingFor()).contains("TimeoutException");

            try (EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withPort(port));
                 Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("late", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
                        new StringSerializer())) {
                    for (String value : List.of("first", "bad", "after")) {
                        producer.send(new ProducerRecord<>("late", value, value)).get(30, TimeUnit.SECONDS);
                    }
                }
                await(Duration.ofSeconds(90), () -> read.contains("after"), "the records after the broker came up");
                assertThat(read).containsExactly("first", "after");
                assertThat(reader.skippedRecords()).isEqualTo(1);
                await(Duration.ofSeconds(30), reader::caughtUp, "the reader to catch up");
                assertThat(reader.waitingFor()).isNull();
            }
        }
    }

    private static void await(Duration patience, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s for %s", patience, what).isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
