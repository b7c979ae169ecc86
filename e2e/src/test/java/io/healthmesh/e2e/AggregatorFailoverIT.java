package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import io.healthmesh.e2e.StackExtension.Stack;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An aggregator killed while a target flips: the surviving one takes its partitions over, and the state events that
 * {@code read_committed} consumers see lose no transition and repeat none (exactly-once processing).
 */
@ExtendWith(StackExtension.class)
class AggregatorFailoverIT {

    private static final Logger LOG = LoggerFactory.getLogger(AggregatorFailoverIT.class);
    private static final String TARGET = "e2e-flip-tcp";
    /** The aggregators' Kafka Streams application id (its default): their consumer group. */
    private static final String APPLICATION_ID = "healthmesh-aggregator";
    /** Session timeout, the dead instance's open transaction timing out, a restore: a minute is ample. */
    private static final Duration TAKEOVER = Duration.ofSeconds(90);

    @Test
    void stateEventsLoseNothingAndRepeatNothingAcrossAnAggregatorKill(Stack stack) {
        HealthmeshStack containers = stack.containers();
        Backend backend = Backend.FLIP_TCP;
        containers.applyTargets(TargetsYaml.of(List.of(new Target(TARGET, "e2e-flip", backend,
                containers.address(backend), 1000, List.of("a")))));
        stack.states().await(0, Duration.ofSeconds(120), TARGET + " HEALTHY", e -> is(e, HealthStatus.HEALTHY));

        int before = stack.states().size();
        // the instance whose task holds the target: killing the other one would test nothing
        String victim = owner(stack, TARGET);
        long killedAt = System.currentTimeMillis();
        containers.kill(victim);
        try {
            // flip the target while the survivor has yet to notice the death and take over
            containers.stop(backend.containerName);
            stack.states().await(before, TAKEOVER, TARGET + " UNHEALTHY after the kill", e -> is(e, HealthStatus.UNHEALTHY));
            long downSeen = System.currentTimeMillis();
            int down = stack.states().size();
            containers.start(backend.containerName);
            stack.states().await(down, TAKEOVER, TARGET + " HEALTHY again", e -> is(e, HealthStatus.HEALTHY));
            LOG.info("killed {} (owner of {}); UNHEALTHY seen after {} ms, HEALTHY {} ms after the backend restarted",
                    victim, TARGET, downSeen - killedAt, System.currentTimeMillis() - downSeen);

            List<TopicFeed.Event<TargetHealth>> all = stack.states().events();
            List<TargetHealth> sinceKill = values(all.subList(before, all.size()).stream()
                    .filter(e -> TARGET.equals(e.key())).toList());
            assertThat(sinceKill).extracting(TargetHealth::getStatus)
                    .as("status changes of %s after the kill", TARGET)
                    .filteredOn(s -> s != HealthStatus.DETECTING)
                    .containsSubsequence(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
            assertThat(sinceKill.stream().filter(h -> h.getStatus() == HealthStatus.UNHEALTHY).map(TargetHealth::getSinceMs)
                    .distinct().count()).as("distinct UNHEALTHY periods after the kill").isEqualTo(1);
        } finally {
            containers.start(backend.containerName);
            containers.start(victim);
        }
        containers.awaitHealthy(victim, Duration.ofSeconds(120));
        assertNothingLostNothingRepeated(stack);
    }

    private static void assertNothingLostNothingRepeated(Stack stack) {
        assertThat(StateEventChain.problems(stack.states().events())).as("state events read_committed").isEmpty();
    }

    /**
     * The aggregator container that processes {@code targetId}: the member of the Streams application's consumer
     * group assigned the probe-results partition of the target's key (Kafka's default partitioner).
     */
    private static String owner(Stack stack, String targetId) {
        String topic = Topics.DEFAULT.probeResults();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.containers().bootstrapServers()))) {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions().size();
            TopicPartition partition = new TopicPartition(topic,
                    Utils.toPositive(Utils.murmur2(targetId.getBytes(StandardCharsets.UTF_8))) % partitions);
            return Await.value(Duration.ofSeconds(60), () -> {
                try {
                    ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(APPLICATION_ID))
                            .describedGroups().get(APPLICATION_ID).get(30, TimeUnit.SECONDS);
                    return group.members().stream()
                            .filter(m -> m.assignment().topicPartitions().contains(partition))
                            .findFirst()
                            .flatMap(m -> stack.containers().nameAt(m.host().replaceFirst("^/", "")));
                } catch (ExecutionException | TimeoutException e) {
                    return Optional.empty();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }, () -> "an aggregator assigned " + partition);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean is(TopicFeed.Event<TargetHealth> e, HealthStatus status) {
        return TARGET.equals(e.key()) && e.value() != null && e.value().getStatus() == status;
    }

    private static List<TargetHealth> values(List<TopicFeed.Event<TargetHealth>> events) {
        return events.stream().map(TopicFeed.Event::value).filter(Objects::nonNull).toList();
    }
}
