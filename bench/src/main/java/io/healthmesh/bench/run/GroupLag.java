package io.healthmesh.bench.run;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How far a consumer group is behind the end of a topic, from its committed offsets. */
public final class GroupLag {

    private GroupLag() {
    }

    /** Records of {@code topic} not yet committed by {@code group} (a partition never committed counts whole). */
    public static long lag(Admin admin, String group, String topic)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        long lag = 0;
        for (var e : endOffsets(admin, topic).entrySet()) {
            OffsetAndMetadata done = committed.get(e.getKey());
            lag += e.getValue() - (done == null ? 0 : done.offset());
        }
        return lag;
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, String topic)
            throws ExecutionException, InterruptedException, TimeoutException {
        int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(topic).partitions().size();
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ask.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(ask).all().get(10, TimeUnit.SECONDS)
                .forEach((partition, end) -> ends.put(partition, end.offset()));
        return ends;
    }

    /**
     * Commits the end of every partition of {@code topic} for {@code group}, which must have no member (its
     * consumers stopped): the group then reads only what is produced after. Retries for at most {@code within} while
     * the broker still counts a stopped member; returns the records skipped.
     */
    public static long skipToEnd(Admin admin, String group, String topic, Duration within)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            long skipped = lag(admin, group, topic);
            if (skipped == 0) {
                return 0;
            }
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            endOffsets(admin, topic).forEach((partition, end) -> ends.put(partition, new OffsetAndMetadata(end)));
            try {
                admin.alterConsumerGroupOffsets(group, ends).all().get(10, TimeUnit.SECONDS);
                return skipped;
            } catch (ExecutionException e) {
                // a member that has just stopped may still be in the group until the broker sees it leave
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
    }

    /** Waits, polling every 250 ms, until the group's lag on {@code topic} is at most {@code atMost}; false on timeout. */
    public static boolean await(Admin admin, String group, String topic, long atMost, Duration within)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (lag(admin, group, topic) <= atMost) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
        return false;
    }
}
