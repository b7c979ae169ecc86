package io.healthmesh.prober.assign;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.KafkaFuture;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Tells an overloaded prober whether another member of its region's group could take its targets. Shedding only
 * helps when one could: a prober alone in its region that left the group would leave every target unprobed, which is
 * worse than probing late (late probes are INCONCLUSIVE, never failures).
 */
@FunctionalInterface
public interface GroupPeers {

    /** Returned by {@link #members()} when the group could not be described (Kafka unreachable, no permission). */
    int UNKNOWN = -1;

    /** The number of members of the group now (the asking prober included when it is in), or {@link #UNKNOWN}. */
    int members();

    /**
     * Asks the group coordinator through {@code admin}.
     *
     * @param timeout how long one question may take; the answer is {@link #UNKNOWN} past it
     */
    static GroupPeers of(Admin admin, String groupId, Duration timeout) {
        requireNonNull(admin, "admin");
        requireNonNull(groupId, "groupId");
        requireNonNull(timeout, "timeout");
        return () -> {
            try {
                KafkaFuture<ConsumerGroupDescription> future = admin.describeConsumerGroups(List.of(groupId))
                        .describedGroups().get(groupId);
                return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS).members().size();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return UNKNOWN;
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                return UNKNOWN;
            }
        };
    }
}
