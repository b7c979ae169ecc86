package io.healthmesh.cli.replay;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How far the aggregator got on its inputs: the offsets its Kafka Streams group (the aggregator's
 * {@code application.id}) committed. Under exactly-once a committed offset and the state events of every record
 * below it are one transaction, so the self-check compares only what those records caused: a record the aggregator
 * had not processed yet (a bulk delete written just before the range's end) is no mismatch.
 *
 * @param group the consumer group asked
 * @param committed the next offset to process per input partition the group committed on
 */
record AggregatorProgress(String group, Map<TopicPartition, Long> committed) {

    AggregatorProgress {
        committed = Map.copyOf(committed);
    }

    /** True when the group committed nothing (no aggregator of that id ran): the inputs are not bounded. */
    boolean unknown() {
        return committed.isEmpty();
    }

    /**
     * {@code range} cut at the group's committed offsets; a partition of a topic the group committed on but not on this
     * partition was not processed at all. Unbounded when {@link #unknown()}.
     */
    TopicRange bound(TopicRange range) {
        if (unknown()) {
            return range;
        }
        Map<TopicPartition, Long> end = new HashMap<>();
        range.end().forEach((tp, offset) -> {
            long processed = committed.getOrDefault(tp, 0L);
            end.put(tp, Math.max(range.start().getOrDefault(tp, 0L), Math.min(offset, processed)));
        });
        return new TopicRange(range.topic(), range.start(), end);
    }

    /** Asks the group coordinator for {@code group}'s committed offsets. */
    static AggregatorProgress of(Properties client, String group, Duration timeout) {
        try (Admin admin = Admin.create(client)) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> committed = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (o != null) {
                    committed.put(tp, o.offset());
                }
            });
            return new AggregatorProgress(group, committed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking for the offsets of group " + group, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not read the committed offsets of the aggregator's group " + group
                    + ": " + (e.getCause() == null ? e : e.getCause()), e);
        }
    }
}
