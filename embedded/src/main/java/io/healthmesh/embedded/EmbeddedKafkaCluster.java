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
import java.util.HashMap;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
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
    /** Node ids (1-based) stopped by {@link #halt}; {@link #close} skips them. */
    private final Set<Integer> halted = new HashSet<>();
    private boolean closed;

    /** One per node when started {@link #startBehindRelays behind relays}, empty otherwise. */
    private final List<NodeRelay> relays;

    private EmbeddedKafkaCluster(List<KafkaRaftServer> servers, List<Path> dirs, String bootstrapServers,
                                 List<NodeRelay> relays) {
        this.servers = servers;
        this.dirs = dirs;
        this.bootstrapServers = bootstrapServers;
        this.relays = relays;
    }

    /**
     * Formats and starts {@code nodes} nodes (2..5) together (a voter waits for a quorum to start), then waits until
     * every broker is registered; {@code overrides} are broker settings given to each node.
     *
     * @throws IllegalStateException when the cluster does not come up within {@value #START_TIMEOUT_S} s (the cause
     *                               says why)
     */
    public static EmbeddedKafkaCluster start(int nodes, Map<String, String> overrides) {
        return start(nodes, overrides, false);
    }

    /**
     * {@link #start(int, Map)}, each node's client listener behind a {@link NodeRelay} on loopback that the node
     * advertises (clients and the other nodes reach it through it), so that {@link #halt} and {@link #cutOff} can
     * make it vanish as a lost host does rather than refuse connections at once as a stopped local process does.
     */
    public static EmbeddedKafkaCluster startBehindRelays(int nodes, Map<String, String> overrides) {
        return start(nodes, overrides, true);
    }

    private static EmbeddedKafkaCluster start(int nodes, Map<String, String> overrides, boolean relayed) {
        if (nodes < 2 || nodes > 5) {
            throw new IllegalArgumentException("nodes: " + nodes + " (expected: 2..5; one node is EmbeddedKafka)");
        }
        Objects.requireNonNull(overrides, "overrides");
        long startedAt = System.nanoTime();
        int[] ports = FreePorts.pick(loopback(), (relayed ? 3 : 2) * nodes);
        StringJoiner voters = new StringJoiner(",");
        StringJoiner bootstrap = new StringJoiner(",");
        List<Map<String, String>> nodeOverrides = new ArrayList<>();
        List<NodeRelay> relays = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            voters.add((i + 1) + "@" + HOST + ":" + ports[2 * i + 1]);
            int advertisedPort = relayed ? ports[2 * nodes + i] : ports[2 * i];
            bootstrap.add(BrokerProperties.advertisedAddress(HOST, advertisedPort));
            Map<String, String> own = new HashMap<>(overrides);
            if (relayed) {
                own.put("advertised.listeners", BrokerProperties.CLIENT_LISTENER + "://"
                        + BrokerProperties.advertisedAddress(HOST, advertisedPort));
                relays.add(new NodeRelay(loopback(), advertisedPort, ports[2 * i], "relay-node" + (i + 1)));
            }
            nodeOverrides.add(own);
        }
        String clusterId = Uuid.randomUuid().toString();
        List<Path> dirs = new ArrayList<>();
        List<KafkaConfig> configs = new ArrayList<>();
        List<KafkaRaftServer> servers = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(nodes);
        try {
            for (NodeRelay relay : relays) {
                relay.start();
            }
            for (int i = 0; i < nodes; i++) {
                Path dir = Files.createTempDirectory("healthmesh-kafka-node" + (i + 1) + "-");
                dirs.add(dir);
                KafkaConfig config = new KafkaConfig(BrokerProperties.node(i + 1, voters.toString(), nodes, HOST,
                        ports[2 * i], ports[2 * i + 1], dir, nodeOverrides.get(i)), false);
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
                    bootstrap.toString(), List.copyOf(relays));
            cluster.awaitBrokers(nodes, deadline);
            LOG.info("Embedded Kafka cluster of {} nodes started at {} in {} ms", nodes, cluster.bootstrapServers,
                    (System.nanoTime() - startedAt) / 1_000_000);
            return cluster;
        } catch (Exception e) {
            new EmbeddedKafkaCluster(List.copyOf(servers), List.copyOf(dirs), bootstrap.toString(),
                    List.copyOf(relays)).close();
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
     * Stops node {@code nodeId} (1..{@link #size}) alone and returns once it is down; the others keep running. How
     * it leaves is the broker setting {@code controlled.shutdown.enable}: at Kafka's default ({@code true}) it first
     * hands its partition leaderships over, as a broker stopped with SIGTERM does; started with {@code false}, it
     * closes its connections and tells the controller nothing, so the cluster learns of the loss only when the
     * node's session with the controller expires ({@code broker.session.timeout.ms}), as after a SIGKILL. Behind
     * relays, its clients see their connections close (as a killed process's kernel closes them), then new
     * connections are never answered (as a dead host's address does not answer).
     *
     * @throws IllegalArgumentException when {@code nodeId} is out of range
     * @throws IllegalStateException when the node was halted already or the cluster is closed
     */
    public synchronized void halt(int nodeId) {
        if (nodeId < 1 || nodeId > servers.size()) {
            throw new IllegalArgumentException("nodeId: " + nodeId + " (expected: 1.." + servers.size() + ")");
        }
        if (closed || !halted.add(nodeId)) {
            throw new IllegalStateException("node " + nodeId + " is stopped already");
        }
        long stoppingAt = System.nanoTime();
        EmbeddedKafka.shutdown(servers.get(nodeId - 1));
        if (!relays.isEmpty()) {
            relays.get(nodeId - 1).blackhole();
        }
        LOG.info("Embedded Kafka node {} halted in {} ms", nodeId, (System.nanoTime() - stoppingAt) / 1_000_000);
    }

    /**
     * Cuts node {@code nodeId} off as a network partition does, for a cluster started {@link #startBehindRelays
     * behind relays}: its relay stops relaying but keeps every connection open and answers no new one, so a client
     * waits for its own timeouts; then the node is {@link #halt halted}, so that the cluster fences it and moves its
     * leaderships as it would a node it no longer hears from.
     *
     * @throws IllegalStateException when the cluster has no relays, or as {@link #halt}
     */
    public void cutOff(int nodeId) {
        if (relays.isEmpty()) {
            throw new IllegalStateException("cutOff needs a cluster started behind relays (startBehindRelays)");
        }
        if (nodeId < 1 || nodeId > servers.size()) {
            throw new IllegalArgumentException("nodeId: " + nodeId + " (expected: 1.." + servers.size() + ")");
        }
        relays.get(nodeId - 1).blackhole();
        halt(nodeId);
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
            for (int i = 0; i < servers.size(); i++) {
                if (!halted.contains(i + 1)) {
                    KafkaRaftServer server = servers.get(i);
                    stopping.add(stoppers.submit(() -> EmbeddedKafka.shutdown(server)));
                }
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
            relays.forEach(NodeRelay::close);
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
