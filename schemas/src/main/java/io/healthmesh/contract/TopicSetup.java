package io.healthmesh.contract;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import io.healthmesh.core.retry.Backoff;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Creates healthmesh's topics when they are missing and checks them when they exist. {@code targets} and
 * {@code probe-results} must share a partition count (the aggregator joins them without a global table); the
 * config and state topics must be compacted (they are the whole config and the latest state). A topic that
 * disagrees is reported, never silently changed: repartitioning would move keys and break co-partitioning.
 * <p>
 * The topics users are told to read ({@code targets}, {@code health-state}, {@code group-state}, {@code rejected},
 * {@code maintenance})
 * are stored gzip-compressed whatever codec a producer used ({@code compression.type=gzip} on the topic: the broker
 * recompresses), because gzip is the one codec every common client reads without a plugin (kafkajs has no lz4,
 * snappy or zstd of its own). They are low-volume; the aggregator's producer keeps lz4 for its changelogs and
 * {@code probe-results} keeps the prober's codec. An existing user-facing topic still at the broker's default
 * ({@code producer}) is switched to gzip; one whose codec somebody set is left alone and reported in the log.
 * <p>
 * The {@code endpoints} topic (the listeners each worker announces) is compacted, one partition, gzip like the
 * user-facing topics, with hourly segments ({@link #ENDPOINTS_SEGMENT_MS}) so that compaction can keep it small.
 * <p>
 * Topics are created with {@link TopicReplication}'s factor and {@code min.insync.replicas} (2 of 3 copies in
 * production); a single copy only when the setup says it is a demo or dev stack. An existing topic with fewer copies
 * than asked is reported in the log, not changed (reassigning replicas is the operator's call).
 */
public final class TopicSetup {

    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);
    private static final long TIMEOUT_SECONDS = 30;
    /** The codec of the topics users read: the only one every common client decodes without a plugin. */
    static final String READABLE_CODEC = "gzip";
    /** What a topic's compression.type is when nobody set it: whatever each producer used. */
    private static final String PRODUCER_CODEC = "producer";
    private static final long METADATA_PAUSE_MS = 50;

    private TopicSetup() {
    }

    /**
     * What each topic must look like.
     *
     * @param compression the topic's {@code compression.type}, or null to keep each producer's codec
     * @param anyPartitions true when the partition count of an existing topic does not matter (topics read whole)
     */
    record Expected(String name, int partitions, boolean compacted, String compression, boolean anyPartitions,
                    Map<String, String> extraConfigs) {

        Expected(String name, int partitions, boolean compacted, String compression) {
            this(name, partitions, compacted, compression, false, Map.of());
        }
    }

    /**
     * The endpoints topic's segments roll every hour so that compaction keeps it to about one announcement per
     * worker: workers refresh theirs every minute, and a prober reads the whole topic when it starts.
     */
    static final String ENDPOINTS_SEGMENT_MS = Long.toString(TimeUnit.HOURS.toMillis(1));

    static List<Expected> expected(Topics topics, int partitions) {
        return List.of(
                new Expected(topics.targets(), partitions, true, READABLE_CODEC),
                new Expected(topics.probeResults(), partitions, false, null),
                new Expected(topics.healthState(), partitions, true, READABLE_CODEC),
                new Expected(topics.groupState(), partitions, true, READABLE_CODEC),
                new Expected(topics.rejected(), 1, false, READABLE_CODEC, true, Map.of()),
                new Expected(topics.groups(), partitions, true, READABLE_CODEC),
                new Expected(topics.maintenance(), 1, true, READABLE_CODEC, true, Map.of()),
                new Expected(topics.maintenanceAccepted(), 1, true, null, true, Map.of()),
                new Expected(topics.endpoints(), 1, true, READABLE_CODEC, true,
                        Map.of(TopicConfig.SEGMENT_MS_CONFIG, ENDPOINTS_SEGMENT_MS)));
    }

    /**
     * Ensures every topic exists as designed.
     *
     * @throws IllegalStateException when an existing topic has another partition count or cleanup policy, or when a
     *     missing topic would get a single copy and {@code replication} does not allow it
     */
    public static void ensure(Admin admin, Topics topics, int partitions, TopicReplication replication) {
        requireNonNull(admin, "admin");
        requireNonNull(topics, "topics");
        requireNonNull(replication, "replication");
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
            replication.requireCreatable(missing.stream().map(NewTopic::name).toList());
            for (NewTopic topic : missing) {
                try {
                    admin.createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw ex; // another worker creating it at the same time is fine
                    }
                }
            }
            checkWhenKnown(admin, expected, replication);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting up topics", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot set up topics: " + describe(cause), cause);
        }
    }

    /** How long a role that sets up topics at start keeps asking a Kafka that does not answer before it gives up. */
    public static final Duration START_PATIENCE = Duration.ofMinutes(5);
    private static final Backoff START_BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    /** Waits for the given time; false when interrupted (the caller then gives up). */
    @FunctionalInterface
    interface Pause {
        boolean await(Duration wait);
    }

    /**
     * As {@link #ensure}, for a role starting: a Kafka that does not answer in time or answers with an error worth
     * retrying (a broker still starting, a loaded cluster, a leader moving) is asked again after a wait (1 s doubling
     * to 30 s) until {@code patience} has passed, each failure logged; a topic that disagrees with the design, a
     * refused single copy or a denied operation fails at once.
     */
    public static void ensurePatiently(Admin admin, Topics topics, int partitions, TopicReplication replication,
                                       Duration patience) {
        patiently(() -> ensure(admin, topics, partitions, replication), patience, START_BACKOFF, System::nanoTime,
                wait -> {
                    try {
                        Thread.sleep(wait.toMillis());
                        return true;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                });
    }

    /** Runs {@code attempt} until it succeeds, it fails with what is not worth retrying, or {@code patience} passed. */
    static void patiently(Runnable attempt, Duration patience, Backoff backoff, LongSupplier nanoTime, Pause pause) {
        long deadline = nanoTime.getAsLong() + patience.toNanos();
        for (int failures = 1; ; failures++) {
            try {
                attempt.run();
                return;
            } catch (IllegalStateException e) {
                Duration wait = backoff.after(failures);
                if (!retriable(e) || nanoTime.getAsLong() + wait.toNanos() - deadline > 0) {
                    throw e;
                }
                LOG.warn("{}; trying again in {} ms (failure {} in a row, giving up {} s after the first)",
                        e.getMessage(), wait.toMillis(), failures, patience.toSeconds());
                if (!pause.await(wait)) {
                    throw e;
                }
            }
        }
    }

    /** True when a failed setup is worth trying again: Kafka did not answer in time, or said to try again. */
    static boolean retriable(IllegalStateException e) {
        Throwable cause = e.getCause();
        return cause instanceof TimeoutException || cause instanceof RetriableException;
    }

    /** What went wrong, never "null": a timeout of our own wait has no message of its own. */
    static String describe(Throwable cause) {
        if (cause instanceof TimeoutException) {
            return "Kafka did not answer within " + TIMEOUT_SECONDS + " s (listing, creating or describing topics)";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    private static NewTopic newTopic(Expected e, TopicReplication replication) {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG,
                e.compacted() ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE);
        if (e.compression() != null) {
            configs.put(TopicConfig.COMPRESSION_TYPE_CONFIG, e.compression());
        }
        configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replication.minInsyncReplicas()));
        configs.putAll(e.extraConfigs());
        return new NewTopic(e.name(), e.partitions(), replication.factor()).configs(configs);
    }

    /**
     * A topic just created is known to the controller before every broker's metadata has it: describe calls
     * answer "unknown topic" for some milliseconds. Wait for it, within the deadline.
     */
    private static void checkWhenKnown(Admin admin, List<Expected> expected, TopicReplication replication)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                check(admin, expected, replication);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(METADATA_PAUSE_MS);
            }
        }
    }

    private static void check(Admin admin, List<Expected> expected, TopicReplication replication)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<String> names = expected.stream().map(Expected::name).toList();
        Map<String, TopicDescription> descriptions =
                admin.describeTopics(names).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<ConfigResource> resources = names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<String> problems = new ArrayList<>();
        Map<ConfigResource, java.util.Collection<AlterConfigOp>> codecs = new LinkedHashMap<>();
        for (Expected e : expected) {
            int actual = descriptions.get(e.name()).partitions().size();
            int copies = descriptions.get(e.name()).partitions().get(0).replicas().size();
            if (copies < replication.factor()) {
                LOG.warn("topic {} has {} copies of its partitions (replication.factor asks for {}): healthmesh does"
                        + " not reassign replicas; kafka-reassign-partitions.sh does", e.name(), copies,
                        replication.factor());
            }
            if (e.anyPartitions()) {
                // any partition count will do for the dead-letter topic, the maintenance windows and the endpoints
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
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, e.name());
            ConfigEntry codec = configs.get(resource).get(TopicConfig.COMPRESSION_TYPE_CONFIG);
            String actualCodec = codec == null ? PRODUCER_CODEC : codec.value();
            if (e.compression() != null && !e.compression().equals(actualCodec)) {
                if (PRODUCER_CODEC.equals(actualCodec)) {
                    codecs.put(resource, List.of(new AlterConfigOp(
                            new ConfigEntry(TopicConfig.COMPRESSION_TYPE_CONFIG, e.compression()),
                            AlterConfigOp.OpType.SET)));
                } else {
                    LOG.warn("topic {} has compression.type={}: clients without that codec cannot read it "
                            + "(kafkajs reads only gzip without a plugin; healthmesh would set {})",
                            e.name(), actualCodec, e.compression());
                }
            }
        }
        if (!codecs.isEmpty()) {
            try {
                admin.incrementalAlterConfigs(codecs).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                LOG.info("set compression.type={} on {} so that every common client can read them", READABLE_CODEC,
                        codecs.keySet().stream().map(ConfigResource::name).toList());
            } catch (ExecutionException ex) {
                LOG.warn("could not set compression.type={} on {} ({}): clients without the producers' codec "
                        + "may not read them", READABLE_CODEC, codecs.keySet().stream().map(ConfigResource::name)
                        .toList(), ex.getCause() == null ? ex.getMessage() : ex.getCause().getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("topics disagree with the design: " + String.join("; ", problems));
        }
    }
}
