package io.healthmesh.bench.run;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
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
        int partitions = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(topic).partitions().size();
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ask.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        long lag = 0;
        for (var e : admin.listOffsets(ask).all().get(10, TimeUnit.SECONDS).entrySet()) {
            OffsetAndMetadata done = committed.get(e.getKey());
            lag += e.getValue().offset() - (done == null ? 0 : done.offset());
        }
        return lag;
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
