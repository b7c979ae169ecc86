package io.healthmesh.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The configuration of a KRaft node (combined broker and controller) sized for a small machine: one replica
 * everywhere for the single broker (or one per node of a small cluster), few threads, small log-cleaner buffers, few
 * internal partitions.
 *
 * <p>Pure: it only builds {@link Properties}, so every choice here is checked by a unit test.
 */
final class BrokerProperties {

    static final int NODE_ID = 1;
    static final String CLIENT_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** The controller listener is for this process only, so it never leaves the loopback interface. */
    static final String CONTROLLER_HOST = "127.0.0.1";

    private BrokerProperties() {
    }

    /**
     * The broker properties; {@code overrides} win over every default here.
     *
     * @param host the client listener's bind address ({@link #isWildcard wildcards} bind every interface)
     * @param clientPort the client listener's port (already chosen, never 0)
     * @param controllerPort the controller listener's port (already chosen, never 0)
     */
    static Properties of(String host, int clientPort, int controllerPort, Path dataDir, Map<String, String> overrides) {
        return node(NODE_ID, NODE_ID + "@" + CONTROLLER_HOST + ":" + controllerPort, 1, host, clientPort,
                controllerPort, dataDir, overrides);
    }

    /**
     * The properties of one node of a cluster of {@code replicas} combined nodes ({@link EmbeddedKafkaCluster}): node
     * {@code nodeId} of the controller quorum {@code voters} ({@code id@host:port,...}), every topic and internal
     * topic replicated {@code replicas} times and {@code min.insync.replicas} one less (at least 1).
     */
    static Properties node(int nodeId, String voters, int replicas, String host, int clientPort, int controllerPort,
                           Path dataDir, Map<String, String> overrides) {
        Objects.requireNonNull(voters, "voters");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas: " + replicas + " (expected: 1 or more)");
        }
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(overrides, "overrides");
        requirePort("clientPort", clientPort);
        requirePort("controllerPort", controllerPort);
        if (clientPort == controllerPort) {
            throw new IllegalArgumentException("controllerPort: " + controllerPort + " (expected: different from clientPort)");
        }
        String bindHost = isWildcard(host) ? "" : hostPart(host);
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listeners", CLIENT_LISTENER + "://" + bindHost + ":" + clientPort + ","
                + CONTROLLER_LISTENER + "://" + CONTROLLER_HOST + ":" + controllerPort);
        p.put("advertised.listeners", CLIENT_LISTENER + "://" + advertisedAddress(host, clientPort));
        p.put("listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", CLIENT_LISTENER);
        p.put("log.dirs", dataDir.toAbsolutePath().toString());

        // Every topic, internal ones too, on every node; writes need all but one in sync (one node: one replica).
        String copies = Integer.toString(replicas);
        String inSync = Integer.toString(Math.max(1, replicas - 1));
        p.put("default.replication.factor", copies);
        p.put("min.insync.replicas", inSync);
        p.put("offsets.topic.replication.factor", copies);
        p.put("transaction.state.log.replication.factor", copies);
        p.put("transaction.state.log.min.isr", inSync);
        p.put("share.coordinator.state.topic.replication.factor", copies);
        p.put("share.coordinator.state.topic.min.isr", inSync);
        // Fewer internal partitions: each is a directory with memory-mapped indexes, created on first use.
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        // A group forms as soon as its first member joins, instead of waiting for more members.
        p.put("group.initial.rebalance.delay.ms", "0");

        // Two cores: a handful of threads is plenty for a test or demo load.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("num.replica.fetchers", "1");

        // Compaction works, with buffers sized for small topics (the defaults reserve 128 MiB + 1 MiB).
        p.put("log.cleaner.enable", "true");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        p.put("log.cleaner.io.buffer.size", Integer.toString(256 * 1024));
        // Look for dirty logs every second rather than every 15 s, so compaction shows within a test's patience.
        p.put("log.cleaner.backoff.ms", "1000");
        // Small segments roll soon enough for the cleaner to see them; small index files keep mapped memory low.
        p.put("log.segment.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("log.index.size.max.bytes", Integer.toString(1024 * 1024));
        p.put("offsets.topic.segment.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("metadata.log.segment.bytes", Integer.toString(16 * 1024 * 1024));

        p.putAll(overrides);
        Properties properties = new Properties();
        properties.putAll(p);
        return properties;
    }

    /**
     * Adds a client listener {@code name} with security {@code protocol} on {@code host:port} to {@code props}
     * (listeners, advertised listeners, protocol map); its own settings are {@code listener.name.<name>.*} keys.
     */
    static void addListener(Properties props, String name, String protocol, String host, int port) {
        requirePort("port", port);
        String bindHost = isWildcard(host) ? "" : hostPart(host);
        props.setProperty("listeners", props.getProperty("listeners") + "," + name + "://" + bindHost + ":" + port);
        props.setProperty("advertised.listeners", props.getProperty("advertised.listeners") + "," + name + "://"
                + advertisedAddress(host, port));
        props.setProperty("listener.security.protocol.map", props.getProperty("listener.security.protocol.map") + ","
                + name + ":" + protocol);
    }

    /** The address clients use: the host itself, or loopback when the broker binds every interface. */
    static String advertisedAddress(String host, int port) {
        String advertisedHost = isWildcard(host) ? EmbeddedKafkaConfig.DEFAULT_HOST : hostPart(host);
        return advertisedHost + ":" + port;
    }

    static boolean isWildcard(String host) {
        String h = host.trim();
        return h.equals("0.0.0.0") || h.equals("::") || h.equals("[::]") || h.equals("::0");
    }

    /** IPv6 literals need brackets in a listener URI and in a bootstrap address. */
    private static String hostPart(String host) {
        String h = host.trim();
        return h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h;
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + ": " + port + " (expected: 1..65535)");
        }
    }
}
