package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * What the brokers of a {@link HealthmeshStack} say about themselves, asked from the test JVM through an admin client:
 * who leads a key's partition, who coordinates a transactional producer, whether every replica is back in sync, and
 * how many copies each topic keeps.
 */
final class KafkaCluster implements AutoCloseable {

    private static final long CALL_SECONDS = 20;

    private final Admin admin;
    private final IntFunction<String> brokerName;

    /** @param brokerName the container of a node id */
    KafkaCluster(String bootstrapServers, IntFunction<String> brokerName) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"));
        this.brokerName = brokerName;
    }

    /** The broker container leading the partition of {@code topic} that {@code key} goes to (default partitioner). */
    String leaderOf(String topic, String key) {
        return Await.value(Duration.ofSeconds(60), () -> tolerant(() -> {
            TopicDescription d = call(() -> admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(CALL_SECONDS, TimeUnit.SECONDS).get(topic));
            int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % d.partitions().size();
            Node leader = d.partitions().get(partition).leader();
            return leader == null || leader.isEmpty() ? Optional.empty() : Optional.of(brokerName.apply(leader.id()));
        }), () -> "a leader of " + topic + "'s partition of " + key);
    }

    /** The broker container coordinating the transactions of a producer whose transactional id starts so. */
    String transactionCoordinatorOf(String transactionalIdPrefix) {
        return Await.value(Duration.ofSeconds(60), () -> tolerant(() -> {
            // the producer in a transaction now first: a replaced stream thread leaves its old id listed
            List<String> ids = call(() -> admin.listTransactions().all().get(CALL_SECONDS, TimeUnit.SECONDS)).stream()
                    .filter(t -> t.transactionalId().startsWith(transactionalIdPrefix))
                    .sorted(Comparator.comparing((TransactionListing t) -> t.state() != TransactionState.ONGOING)
                            .thenComparing(TransactionListing::transactionalId))
                    .map(TransactionListing::transactionalId).toList();
            if (ids.isEmpty()) {
                return Optional.empty();
            }
            int coordinator = call(() -> admin.describeTransactions(List.of(ids.get(0))).all()
                    .get(CALL_SECONDS, TimeUnit.SECONDS)).get(ids.get(0)).coordinatorId();
            return Optional.of(brokerName.apply(coordinator));
        }), () -> "the coordinator of a transactional id " + transactionalIdPrefix + "*");
    }

    /** Waits until every partition of every topic has all its replicas in sync again; returns how long it took. */
    Duration awaitFullyReplicated(Duration timeout) {
        long start = System.nanoTime();
        Await.value(timeout, () -> underReplicated().isEmpty() ? Optional.of(true) : Optional.empty(),
                () -> "every replica in sync; behind: " + underReplicated());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Every topic (internal ones too) as "name: N copies, min.insync.replicas M". */
    List<String> replicationOfEveryTopic() {
        Set<String> names = call(() -> admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(CALL_SECONDS, TimeUnit.SECONDS));
        Map<String, TopicDescription> topics = call(() -> admin.describeTopics(names).allTopicNames()
                .get(CALL_SECONDS, TimeUnit.SECONDS));
        List<ConfigResource> resources = names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> configs = call(() -> admin.describeConfigs(resources).all()
                .get(CALL_SECONDS, TimeUnit.SECONDS));
        List<String> lines = new ArrayList<>();
        for (String name : names.stream().sorted().toList()) {
            int copies = topics.get(name).partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
            String minInsync = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name))
                    .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value();
            lines.add(name + ": " + copies + " copies, min.insync.replicas " + minInsync);
        }
        return lines;
    }

    private List<String> underReplicated() {
        try {
            Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(CALL_SECONDS, TimeUnit.SECONDS);
            List<String> behind = new ArrayList<>();
            admin.describeTopics(names).allTopicNames().get(CALL_SECONDS, TimeUnit.SECONDS).forEach((name, d) -> {
                for (TopicPartitionInfo p : d.partitions()) {
                    if (p.isr().size() < p.replicas().size()) {
                        behind.add(name + "-" + p.partition());
                    }
                }
            });
            return behind;
        } catch (ExecutionException | TimeoutException e) {
            return List.of("(cluster not answering: " + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A probe of an {@link Await}: a cluster that does not answer yet is no answer yet. */
    private static <T> Optional<T> tolerant(java.util.function.Supplier<Optional<T>> probe) {
        try {
            return probe.get();
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    private interface AdminCall<T> {
        T get() throws ExecutionException, TimeoutException, InterruptedException;
    }

    private static <T> T call(AdminCall<T> call) {
        try {
            return call.get();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("admin call failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
