package io.healthmesh.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A topic that {@code createTopics} has just created is known to the controller; the broker an admin client asks
 * next learns of it from the metadata log a little later, and meanwhile answers "unknown topic". Tests that
 * describe a topic right after creating it wait here instead of failing on that gap.
 */
public final class CreatedTopics {

    private CreatedTopics() {
    }

    /**
     * The topic's description once the answering broker knows it and every partition has a leader.
     *
     * @throws AssertionError when that is not so within {@code patience}, or the broker answers with another error
     */
    public static TopicDescription awaitLed(Admin admin, String name, Duration patience) {
        return Await.value(patience, () -> led(admin, name, patience),
                () -> "topic " + name + " known to the broker, with a leader for every partition");
    }

    private static Optional<TopicDescription> led(Admin admin, String name, Duration patience) {
        try {
            TopicDescription description = admin.describeTopics(List.of(name)).allTopicNames()
                    .get(patience.toMillis(), TimeUnit.MILLISECONDS).get(name);
            boolean led = description.partitions().stream()
                    .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
            return led ? Optional.of(description) : Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw new AssertionError("cannot describe topic " + name + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no answer describing topic " + name + " within " + patience, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while describing topic " + name, e);
        }
    }
}
