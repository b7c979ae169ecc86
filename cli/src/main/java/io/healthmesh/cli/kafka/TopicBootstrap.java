package io.healthmesh.cli.kafka;

import io.healthmesh.schemas.TopicSetup;
import io.healthmesh.schemas.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Creates or checks healthmesh's topics through {@link TopicSetup#ensure}, retrying while a just-created topic is
 * not yet known to the broker that answers the describe calls (its metadata trails the controller by milliseconds).
 */
public final class TopicBootstrap {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long PAUSE_MS = 100;

    private TopicBootstrap() {
    }

    public static void ensure(Admin admin, Topics topics, int partitions, short replication) {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            try {
                TopicSetup.ensure(admin, topics, partitions, replication);
                return;
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || Instant.now().isAfter(deadline)) {
                    throw e;
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while setting up topics", e);
            }
        }
    }
}
