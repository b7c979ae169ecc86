package io.healthmesh.notifier;

import io.healthmesh.core.secret.Redact;
import io.healthmesh.notifier.domain.AlertBook;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.contract.serde.RecordDecodeException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads newly assigned partitions from their beginning up to their floor (the committed offset, or the end for a
 * group's first start) into the {@link AlertBook} without sending anything, so the notifier knows which alerts are
 * open before it reads live records. The state topics are compacted, so this is about one record per key.
 */
final class PartitionReplay {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionReplay.class);

    private final NotifierConfig config;
    private final StateDecoder decoder;
    private final AlertBook book;
    private final NotifierMetrics metrics;

    PartitionReplay(NotifierConfig config, StateDecoder decoder, AlertBook book, NotifierMetrics metrics) {
        this.config = config;
        this.decoder = decoder;
        this.book = book;
        this.metrics = metrics;
    }

    void replay(Map<TopicPartition, Long> floors) {
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(KafkaProps.reader(config, "replay"))) {
            reader.assign(floors.keySet());
            reader.seekToBeginning(floors.keySet());
            Map<TopicPartition, Long> remaining = new HashMap<>(floors);
            remaining.entrySet().removeIf(e -> reader.position(e.getKey()) >= e.getValue());
            while (!remaining.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    Long floor = remaining.get(tp);
                    if (floor == null || r.offset() >= floor) {
                        continue;
                    }
                    if (!replay(r)) {
                        reader.seek(tp, r.offset());
                        sleep();
                        break;
                    }
                }
                remaining.entrySet().removeIf(e -> reader.position(e.getKey()) >= e.getValue());
            }
        }
    }

    private boolean replay(ConsumerRecord<byte[], byte[]> r) {
        try {
            Observation o = decoder.decode(r);
            if (o != null) {
                book.replay(o);
            }
        } catch (RecordDecodeException e) {
            metrics.undecodable();
        } catch (SerializationException e) {
            LOG.warn("replay {}-{}: registry unreachable ({}); reading again", r.topic(), r.partition(),
                    Redact.userInfo(e.getMessage()));
            return false;
        }
        return true;
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying", e);
        }
    }
}
