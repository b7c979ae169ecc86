package io.healthmesh.bench.run;

import io.healthmesh.embedded.FreePorts;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A replicated Kafka cluster in this JVM, for benchmarks that ask what replication costs: {@code nodes} KRaft nodes
 * in combined mode (each a broker and a controller voter) on loopback, every topic replicated to all of them, with
 * {@code min.insync.replicas} one less (at least 1), the transaction state log and the offsets topic alike. A
 * production cluster puts its brokers on separate machines; here they share the cores, so what the cluster is good
 * for is its CPU time in all (every broker's threads together), not its latency under load. Bench code only: the
 * product's single node is {@code EmbeddedKafka}.
 */
public final class LocalCluster implements AutoCloseable {

    private static final String CONTROLLER = "CONTROLLER";
    private static final String CLIENT = "PLAINTEXT";
    private static final String HOST = "127.0.0.1";
    private static final long START_TIMEOUT_S = 120;
    private static final long STOP_TIMEOUT_S = 30;

    private final List<KafkaRaftServer> servers;
    private final List<Path> dirs;
    private final String bootstrapServers;

    private LocalCluster(List<KafkaRaftServer> servers, List<Path> dirs, String bootstrapServers) {
        this.servers = servers;
        this.dirs = dirs;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Formats and starts {@code nodes} nodes (1..5) together (a voter waits for a quorum to start), then waits until
     * every broker is registered; {@code overrides} are broker settings given to each.
     *
     * @throws IllegalStateException when the cluster does not come up within two minutes
     */
    public static LocalCluster start(int nodes, Map<String, String> overrides) throws Exception {
        if (nodes < 1 || nodes > 5) {
            throw new IllegalArgumentException("nodes: " + nodes + " (expected: 1..5)");
        }
        int[] ports = FreePorts.pick(InetAddress.getByName(HOST), 2 * nodes);
        StringJoiner voters = new StringJoiner(",");
        StringJoiner bootstrap = new StringJoiner(",");
        for (int i = 0; i < nodes; i++) {
            voters.add((i + 1) + "@" + HOST + ":" + ports[2 * i + 1]);
            bootstrap.add(HOST + ":" + ports[2 * i]);
        }
        String clusterId = Uuid.randomUuid().toString();
        List<Path> dirs = new ArrayList<>();
        List<KafkaConfig> configs = new ArrayList<>();
        try {
            for (int i = 0; i < nodes; i++) {
                Path dir = Files.createTempDirectory("healthmesh-cluster-" + (i + 1) + "-");
                dirs.add(dir);
                KafkaConfig config = new KafkaConfig(properties(i + 1, nodes, ports[2 * i], ports[2 * i + 1],
                        voters.toString(), dir, overrides), false);
                format(config, dir, clusterId);
                configs.add(config);
            }
        } catch (Exception e) {
            dirs.forEach(LocalCluster::deleteQuietly);
            throw e;
        }
        List<KafkaRaftServer> servers = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<KafkaRaftServer>> started = new ArrayList<>();
            for (KafkaConfig config : configs) {
                started.add(starters.submit(() -> {
                    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
                    synchronized (servers) {
                        servers.add(server);
                    }
                    server.startup();
                    return server;
                }));
            }
            for (Future<KafkaRaftServer> f : started) {
                f.get(START_TIMEOUT_S, TimeUnit.SECONDS);
            }
            LocalCluster cluster = new LocalCluster(List.copyOf(servers), List.copyOf(dirs), bootstrap.toString());
            cluster.awaitBrokers(nodes);
            return cluster;
        } catch (Exception e) {
            new LocalCluster(List.copyOf(servers), List.copyOf(dirs), bootstrap.toString()).close();
            throw new IllegalStateException("the local cluster of " + nodes + " nodes did not start: " + e, e);
        } finally {
            starters.shutdownNow();
        }
    }

    /** {@code host:port,...} of every broker. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Stops every node together, waiting at most {@value #STOP_TIMEOUT_S} s: one by one, the last broker would wait
     * for a controller quorum that is already gone.
     */
    @Override
    public void close() {
        ExecutorService stoppers = Executors.newFixedThreadPool(Math.max(1, servers.size()));
        try {
            List<Future<?>> stopping = new ArrayList<>();
            for (KafkaRaftServer server : servers) {
                stopping.add(stoppers.submit(() -> {
                    server.shutdown();
                    server.awaitShutdown();
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_S);
            for (Future<?> f : stopping) {
                try {
                    f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    System.err.println("a node of the local cluster did not stop cleanly: " + e);
                }
            }
        } finally {
            stoppers.shutdownNow();
            dirs.forEach(LocalCluster::deleteQuietly);
        }
    }

    private void awaitBrokers(int nodes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            while (admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size() < nodes) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("fewer than " + nodes + " brokers registered after "
                            + START_TIMEOUT_S + " s");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
    }

    private static Properties properties(int nodeId, int nodes, int clientPort, int controllerPort, String voters,
                                         Path dir, Map<String, String> overrides) {
        String replicas = Integer.toString(nodes);
        String minIsr = Integer.toString(Math.max(1, nodes - 1));
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER);
        p.put("listeners", CLIENT + "://" + HOST + ":" + clientPort + "," + CONTROLLER + "://" + HOST + ":"
                + controllerPort);
        p.put("advertised.listeners", CLIENT + "://" + HOST + ":" + clientPort);
        p.put("listener.security.protocol.map", CLIENT + ":PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", CLIENT);
        p.put("log.dirs", dir.toAbsolutePath().toString());
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minIsr);
        p.put("offsets.topic.replication.factor", replicas);
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // the threads of the single embedded broker (EmbeddedKafka), per node
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.replica.fetchers", "1");
        p.put("log.segment.bytes", Integer.toString(16 * 1024 * 1024));
        p.putAll(overrides);
        return p;
    }

    private static void format(KafkaConfig config, Path dir, String clusterId) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(out)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setClusterId(clusterId)
                    .setNodeId(config.nodeId())
                    .setControllerListenerName(CONTROLLER)
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .addDirectory(dir.toAbsolutePath().toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .run();
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            Utils.delete(dir.toFile());
        } catch (IOException e) {
            System.err.println("cannot delete " + dir + ": " + e.getMessage());
        }
    }
}
