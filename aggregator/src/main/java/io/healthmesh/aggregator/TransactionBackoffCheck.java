package io.healthmesh.aggregator;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Reads, once at start, how far apart the brokers retry adding a partition to a transaction, and says so in the log
 * when that slows state events down on a cluster of several brokers.
 *
 * <p>With Kafka 4's transactions, the first write of a transaction to a partition makes its leader ask the
 * transaction coordinator to add the partition. While the previous transaction is still being completed (its markers
 * written and replicated after the commit returned) the coordinator refuses, and the leader asks again
 * {@value #SETTING} later (20 ms by default). The aggregator starts a transaction right after each commit, so on a
 * cluster of several brokers every commit meets this, and a shorter backoff shortens probe -> event (figures in
 * docs/BENCHMARKS.md, "Detection and probe -> event").
 * On one broker the add goes through at once, so nothing is said there.
 *
 * <p>The check only reads (DescribeCluster, DescribeConfigs of the brokers). A broker that does not answer, an ACL
 * that refuses the read or a broker without the setting leaves the log silent on it: the check never stops a start.
 */
final class TransactionBackoffCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionBackoffCheck.class);

    /** The broker setting read. */
    static final String SETTING = "add.partitions.to.txn.retry.backoff.ms";
    /** The value OPERATIONS.md advises where detection within 100 ms matters (measured to cost no broker CPU). */
    static final long ADVISED_MS = 5;
    /** How long the whole check may take; a start never waits longer for it. */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private TransactionBackoffCheck() {
    }

    /**
     * What to log for a cluster whose brokers report {@code backoffByBroker} (broker id -> the setting's value as the
     * broker reports it) out of {@code brokers} brokers in all; empty when there is nothing to say: one broker, or
     * every value readable at most {@link #ADVISED_MS}.
     */
    static Optional<String> advice(int brokers, Map<Integer, String> backoffByBroker) {
        requireNonNull(backoffByBroker, "backoffByBroker");
        if (brokers < 2) {
            return Optional.empty();
        }
        Map<Integer, Long> slow = new TreeMap<>();
        for (Map.Entry<Integer, String> e : backoffByBroker.entrySet()) {
            Long ms = parseMillis(e.getValue());
            if (ms != null && ms > ADVISED_MS) {
                slow.put(e.getKey(), ms);
            }
        }
        if (slow.isEmpty()) {
            return Optional.empty();
        }
        List<String> named = new ArrayList<>();
        slow.forEach((id, ms) -> named.add(id + " (" + ms + " ms)"));
        return Optional.of(String.format(
                "%d of the cluster's %d brokers retry a transaction's partition adds more than %d ms apart (%s: %s). "
                        + "On a cluster of several brokers each commit's first writes wait for those retries, which "
                        + "delays state events (three brokers in the benchmark: probe -> event p99 134-195 ms at "
                        + "20 ms, 94-123 ms at 5). "
                        + "Where detection within 100 ms matters, set %s=%d on the brokers "
                        + "(docs/OPERATIONS.md, \"Detection latency and the commit interval\").",
                slow.size(), brokers, ADVISED_MS, SETTING, String.join(", ", named), SETTING, ADVISED_MS));
    }

    /** The setting's value in milliseconds, or null when it is not a number (a value the check cannot judge). */
    static Long parseMillis(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Reads the setting from every broker through {@code admin} and logs the advice, if any; never throws. */
    static Optional<String> logAdvice(Admin admin) {
        requireNonNull(admin, "admin");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                    .timeoutMs((int) TIMEOUT.toMillis())).nodes().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
            if (nodes.size() < 2) {
                return Optional.empty();
            }
            List<ConfigResource> resources = nodes.stream()
                    .map(n -> new ConfigResource(ConfigResource.Type.BROKER, n.idString())).toList();
            Map<ConfigResource, Config> configs = admin.describeConfigs(resources,
                            new DescribeConfigsOptions().timeoutMs((int) Math.max(1, remainingMs(deadline))))
                    .all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
            Map<Integer, String> values = new TreeMap<>();
            configs.forEach((resource, config) -> {
                ConfigEntry entry = config.get(SETTING);
                if (entry != null) {
                    values.put(Integer.parseInt(resource.name()), entry.value());
                }
            });
            Optional<String> advice = advice(nodes.size(), values);
            advice.ifPresent(LOG::info);
            return advice;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // an ACL without DescribeConfigs on the cluster, a slow broker: the advice is optional
            LOG.debug("cannot read the brokers' {}: {}", SETTING,
                    e instanceof ExecutionException && e.getCause() != null ? e.getCause().toString() : e.toString());
            return Optional.empty();
        }
    }

    private static long remainingMs(long deadlineNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
