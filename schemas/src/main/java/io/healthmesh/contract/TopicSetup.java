package io.healthmesh.contract;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Creates healthmesh's topics when they are missing and checks them when they exist. {@code targets} and
 * {@code probe-results} must share a partition count (the aggregator joins them without a global table); the
 * config and state topics must be compacted (they are the whole config and the latest state). A topic that
 * disagrees is reported, never silently changed: repartitioning would move keys and break co-partitioning.
 */
public final class TopicSetup {

    private static final long TIMEOUT_SECONDS = 30;
    private static final long METADATA_PAUSE_MS = 50;

    private TopicSetup() {
    }

    /** What each topic must look like. */
    record Expected(String name, int partitions, boolean compacted) {
    }

    static List<Expected> expected(Topics topics, int partitions) {
        return List.of(
                new Expected(topics.targets(), partitions, true),
                new Expected(topics.probeResults(), partitions, false),
                new Expected(topics.healthState(), partitions, true),
                new Expected(topics.groupState(), partitions, true),
                new Expected(topics.rejected(), 1, false));
    }

    /**
     * Ensures every topic exists as designed.
     *
     * @throws IllegalStateException when an existing topic has another partition count or cleanup policy
     */
    public static void ensure(Admin admin, Topics topics, int partitions, short replication) {
        requireNonNull(admin, "admin");
        requireNonNull(topics, "topics");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions: " + partitions + " (expected: 1 or more)");
        }
        List<Expected> expected = expected(topics, partitions);
        try {
            var existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (Expected e : expected) {
                if (!existing.contains(e.name())) {
                    missing.add(newTopic(e, replication));
                }
            }
            for (NewTopic topic : missing) {
                try {
                    admin.createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw ex; // another worker creating it at the same time is fine
                    }
                }
            }
            checkWhenKnown(admin, expected);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting up topics", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot set up topics: " + cause.getMessage(), cause);
        }
    }

    private static NewTopic newTopic(Expected e, short replication) {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG,
                e.compacted() ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE);
        return new NewTopic(e.name(), e.partitions(), replication).configs(configs);
    }

    /**
     * A topic just created is known to the controller before every broker's metadata has it: describe calls
     * answer "unknown topic" for some milliseconds. Wait for it, within the deadline.
     */
    private static void checkWhenKnown(Admin admin, List<Expected> expected)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                check(admin, expected);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(METADATA_PAUSE_MS);
            }
        }
    }

    private static void check(Admin admin, List<Expected> expected)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<String> names = expected.stream().map(Expected::name).toList();
        Map<String, TopicDescription> descriptions =
                admin.describeTopics(names).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<ConfigResource> resources = names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<String> problems = new ArrayList<>();
        for (Expected e : expected) {
            int actual = descriptions.get(e.name()).partitions().size();
            if (e.name().endsWith("rejected")) {
                // any partition count will do for the dead-letter topic
            } else if (actual != e.partitions()) {
                problems.add(e.name() + ": " + actual + " partitions (expected: " + e.partitions() + ")");
            }
            ConfigEntry policy = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, e.name()))
                    .get(TopicConfig.CLEANUP_POLICY_CONFIG);
            String value = policy == null ? "delete" : policy.value();
            boolean compacted = value.contains(TopicConfig.CLEANUP_POLICY_COMPACT);
            if (e.compacted() && !compacted) {
                problems.add(e.name() + ": cleanup.policy=" + value + " (expected: compact)");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("topics disagree with the design: " + String.join("; ", problems));
        }
    }
}
