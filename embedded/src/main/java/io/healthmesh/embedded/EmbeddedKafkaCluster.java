package io.healthmesh.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A replicated Kafka cluster in this JVM, on loopback, for tests and benchmarks that ask what replication changes:
 * {@code nodes} KRaft nodes in combined mode (each a broker and a controller voter), each configured as
 * {@link EmbeddedKafka}'s single node is, but with every topic and internal topic replicated to all of them and
 * {@code min.insync.replicas} one less. The nodes share this machine's cores: a cluster's CPU in all is measurable
 * here, its latency under load only as an upper bound. Temporary data directories, deleted at {@link #close}.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);
    private static final String HOST = BrokerProperties.CONTROLLER_HOST;
    /** How long {@link #start} waits for every node to start and register, in all. */
    static final long START_TIMEOUT_S = 120;
    /** How long {@link #close} waits for the nodes to stop. */
    static final long STOP_TIMEOUT_S = 30;

    private final List<KafkaRaftServer> servers;
    private final List<Path> dirs;
    private final String bootstrapServers;
    private boolean closed;

    private EmbeddedKafkaCluster(List<KafkaRaftServer> servers, List<Path> dirs, String bootstrapServers) {
        this.servers = servers;
        this.dirs = dirs;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Formats and starts {@code nodes} nodes (2..5) together (a voter waits for a quorum to start), then waits until
     * every broker is registered; {@code overrides} are broker settings given to each node.
     *
     * @throws IllegalStateException when the cluster does not come up within {@value #START_TIMEOUT_S} s (the cause
     *                               says why)
     */
    public static EmbeddedKafkaCluster start(int nodes, Map<String, String> overrides) {
        if (nodes < 2 || nodes > 5) {
            throw new IllegalArgumentException("nodes: " + nodes + " (expected: 2..5; one node is EmbeddedKafka)");
        }
        Objects.requireNonNull(overrides, "overrides");
        long startedAt = System.nanoTime();
        int[] ports = FreePorts.pick(loopback(), 2 * nodes);
        StringJoiner voters = new StringJoiner(",");
        StringJoiner bootstrap = new StringJoiner(",");
        for (int i = 0; i < nodes; i++) {
            voters.add((i + 1) + "@" + HOST + ":" + ports[2 * i + 1]);
            bootstrap.add(BrokerProperties.advertisedAddress(HOST, ports[2 * i]));
        }
        String clusterId = Uuid.randomUuid().toString();
        List<Path> dirs = new ArrayList<>();
        List<KafkaConfig> configs = new ArrayList<>();
        List<KafkaRaftServer> servers = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(nodes);
        try {
            for (int i = 0; i < nodes; i++) {
                Path dir = Files.createTempDirectory("healthmesh-kafka-node" + (i + 1) + "-");
                dirs.add(dir);
                KafkaConfig config = new KafkaConfig(BrokerProperties.node(i + 1, voters.toString(), nodes, HOST,
                        ports[2 * i], ports[2 * i + 1], dir, overrides), false);
                KraftStorage.formatIfNeeded(config, dir, clusterId);
                configs.add(config);
            }
            List<Future<?>> started = new ArrayList<>();
            for (KafkaConfig config : configs) {
                KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
                servers.add(server);
                started.add(starters.submit(server::startup));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
            for (Future<?> f : started) {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(List.copyOf(servers), List.copyOf(dirs),
                    bootstrap.toString());
            cluster.awaitBrokers(nodes, deadline);
            LOG.info("Embedded Kafka cluster of {} nodes started at {} in {} ms", nodes, cluster.bootstrapServers,
                    (System.nanoTime() - startedAt) / 1_000_000);
            return cluster;
        } catch (Exception e) {
            new EmbeddedKafkaCluster(List.copyOf(servers), List.copyOf(dirs), bootstrap.toString()).close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the embedded Kafka cluster of " + nodes + " nodes did not start: "
                    + e.getMessage(), e);
        } finally {
            starters.shutdownNow();
        }
    }

    /** {@code host:port,...} of every broker. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Nodes in the cluster, which is also the replication factor of its topics. */
    public int size() {
        return servers.size();
    }

    /**
     * Stops every node together, waiting at most {@value #STOP_TIMEOUT_S} s (idempotent): one after the other, the
     * last would wait for a controller quorum already gone. Deletes the data directories.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ExecutorService stoppers = Executors.newFixedThreadPool(Math.max(1, servers.size()));
        try {
            List<Future<?>> stopping = new ArrayList<>();
            for (KafkaRaftServer server : servers) {
                stopping.add(stoppers.submit(() -> EmbeddedKafka.shutdown(server)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_S);
            for (Future<?> f : stopping) {
                try {
                    f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (Exception e) {
                    LOG.warn("A node of the embedded Kafka cluster did not stop within {} s", STOP_TIMEOUT_S, e);
                }
            }
        } finally {
            stoppers.shutdownNow();
            dirs.forEach(EmbeddedKafka::deleteQuietly);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaCluster[" + bootstrapServers + "]";
    }

    private void awaitBrokers(int nodes, long deadline) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            while (admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size() < nodes) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("fewer than " + nodes + " brokers registered within "
                            + START_TIMEOUT_S + " s of the start");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName(HOST);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
