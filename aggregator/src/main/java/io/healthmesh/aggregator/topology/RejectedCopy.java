package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.nio.charset.StandardCharsets;

/**
 * How a refused input record is copied to the rejected topic, in one place for every processor that refuses input:
 * its exact key and value bytes and its own headers, plus {@link RejectedHeaders} (reason, detail, who, where from).
 * A record too large to copy within one produce request goes without its bytes, as {@code TOO_LARGE}: under
 * exactly-once the failed send would abort the transaction and the record would come back forever.
 *
 * @param key the key to write (the original, or null when it was too large)
 * @param value the value to write (the original, or null when the record was too large)
 * @param reason the reason written, for the metrics
 */
record RejectedCopy(byte[] key, byte[] value, Headers headers, String reason) {

    static RejectedCopy of(byte[] key, byte[] value, Headers original, Rejection rejection, long maxRejectedBytes,
                           RecordMetadata source) {
        Headers headers = new RecordHeaders(original.toArray());
        long size = RecordSafeHandlers.size(key, value, headers);
        if (size > maxRejectedBytes) {
            rejection = new Rejection(Rejection.TOO_LARGE, "record: " + size + " bytes (expected: at most "
                    + maxRejectedBytes + " to be copied here); was " + rejection.reason() + ": " + rejection.detail());
            key = key != null && key.length <= RecordSafeHandlers.MAX_KEPT_KEY_BYTES ? key : null;
            value = null;
            headers = new RecordHeaders();
        }
        headers.add(RejectedHeaders.REASON, bytes(rejection.reason()));
        headers.add(RejectedHeaders.DETAIL, bytes(RecordSafeHandlers.cut(rejection.detail())));
        headers.add(RejectedHeaders.REJECTED_BY, bytes("aggregator"));
        if (source != null) {
            headers.add(RejectedHeaders.SOURCE_TOPIC, bytes(source.topic()));
            headers.add(RejectedHeaders.SOURCE_PARTITION, bytes(Integer.toString(source.partition())));
            headers.add(RejectedHeaders.SOURCE_OFFSET, bytes(Long.toString(source.offset())));
        }
        return new RejectedCopy(key, value, headers, rejection.reason());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
