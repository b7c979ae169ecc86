package io.healthmesh.prober.assign;

import io.healthmesh.contract.RejectedHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Sends a bad record (a target definition, an announcement of endpoints) to the rejected topic: original key and value bytes, the reason and where it
 * came from in {@link RejectedHeaders}. A failure to send is logged, never thrown: bad input must not stop
 * the worker.
 */
public final class RejectedRecords {

    private static final Logger LOG = LoggerFactory.getLogger(RejectedRecords.class);
    private static final int MAX_DETAIL = 1_000;

    private final Producer<byte[], byte[]> producer;
    private final String rejectedTopic;
    private final String rejectedBy;
    private final Consumer<String> onRejected;

    /**
     * @param rejectedBy value of the {@link RejectedHeaders#REJECTED_BY} header, {@code prober/<region>/<id>}
     * @param onRejected called with the reason of each rejection (the metric)
     */
    public RejectedRecords(Producer<byte[], byte[]> producer, String rejectedTopic, String rejectedBy,
                    Consumer<String> onRejected) {
        this.producer = requireNonNull(producer, "producer");
        this.rejectedTopic = requireNonNull(rejectedTopic, "rejectedTopic");
        this.rejectedBy = requireNonNull(rejectedBy, "rejectedBy");
        this.onRejected = requireNonNull(onRejected, "onRejected");
    }

    /** Counts, logs and forwards {@code source}, whose bytes are sent as they are; never throws for a failed send. */
    public void reject(ConsumerRecord<byte[], byte[]> source, String reason, String detail) {
        onRejected.accept(reason);
        LOG.warn("rejected record {}-{}@{}: {}: {}", source.topic(), source.partition(),
                source.offset(), reason, detail);
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(rejectedTopic, null, source.key(), source.value());
        Headers headers = out.headers();
        headers.add(RejectedHeaders.REASON, bytes(reason));
        headers.add(RejectedHeaders.DETAIL, bytes(shorten(detail)));
        headers.add(RejectedHeaders.SOURCE_TOPIC, bytes(source.topic()));
        headers.add(RejectedHeaders.SOURCE_PARTITION, bytes(Integer.toString(source.partition())));
        headers.add(RejectedHeaders.SOURCE_OFFSET, bytes(Long.toString(source.offset())));
        headers.add(RejectedHeaders.REJECTED_BY, bytes(rejectedBy));
        try {
            producer.send(out, (metadata, error) -> {
                if (error != null) {
                    LOG.warn("could not write rejected record {}-{}@{} to {}", source.topic(), source.partition(),
                            source.offset(), rejectedTopic, error);
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("could not write rejected record {}-{}@{} to {}", source.topic(), source.partition(),
                    source.offset(), rejectedTopic, e);
        }
    }

    private static String shorten(String detail) {
        String text = detail == null ? "" : detail;
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL - 1) + "…";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
