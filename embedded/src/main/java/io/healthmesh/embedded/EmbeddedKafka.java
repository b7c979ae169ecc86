package io.healthmesh.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in this JVM: KRaft mode, one process acting as broker and controller,
 * started from Kafka's own server jars (no ZooKeeper, no Docker, no scripts).
 *
 * <p>{@link #start} formats the data directory on first use and returns once the broker accepts clients
 * (registered with its controller and unfenced), typically within a few seconds. {@link #close} shuts the
 * broker down cleanly, so a later {@code start} on the same directory finds every topic and record again;
 * a temporary directory (config {@code dataDir == null}) is deleted instead.
 *
 * <p>The broker logs through slf4j; its verbosity is the host application's logging configuration.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    /** Ports can be taken between probing and binding; a few fresh attempts make that race harmless. */
    private static final int BIND_ATTEMPTS = 3;

    /** Name of the optional secured listener ({@link #startSecured}). */
    public static final String SECURE_LISTENER = "SECURE";

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final String secureBootstrapServers;
    private final Path dataDir;
    private final boolean deleteDataDirOnClose;
    private boolean closed;

    private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers, String secureBootstrapServers, Path dataDir,
                          boolean deleteDataDirOnClose) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.secureBootstrapServers = secureBootstrapServers;
        this.dataDir = dataDir;
        this.deleteDataDirOnClose = deleteDataDirOnClose;
    }

    /** Starts a broker with the small-machine defaults. */
    public static EmbeddedKafka start(EmbeddedKafkaConfig cfg) {
        return start(cfg, Map.of());
    }

    /**
     * Starts a broker; {@code brokerOverrides} are Kafka broker properties that replace the defaults
     * (for example {@code auto.create.topics.enable=false} or {@code log.cleaner.backoff.ms}).
     *
     * @throws IllegalStateException when the broker cannot start (the cause says why)
     */
    public static EmbeddedKafka start(EmbeddedKafkaConfig cfg, Map<String, String> brokerOverrides) {
        return start(cfg, brokerOverrides, null);
    }

    /**
     * Starts a broker with a second client listener named {@value #SECURE_LISTENER} using {@code protocol}
     * ({@code SASL_SSL}, {@code SSL}, {@code SASL_PLAINTEXT}) on the same host and a free port; its settings come with
     * {@code brokerOverrides} as {@code listener.name.secure.*} keys (key store, SASL mechanisms and JAAS). The
     * PLAINTEXT listener stays for the inter-broker and the test's own administration (with an authorizer, make its
     * principal {@code User:ANONYMOUS} a super user; it never leaves the host given).
     */
    public static EmbeddedKafka startSecured(EmbeddedKafkaConfig cfg, String protocol, Map<String, String> brokerOverrides) {
        return start(cfg, brokerOverrides, Objects.requireNonNull(protocol, "protocol"));
    }

    private static EmbeddedKafka start(EmbeddedKafkaConfig cfg, Map<String, String> brokerOverrides, String secureProtocol) {
        Objects.requireNonNull(cfg, "cfg");
        Objects.requireNonNull(brokerOverrides, "brokerOverrides");
        long startedAt = System.nanoTime();
        boolean temporary = cfg.dataDir() == null;
        Path dir = prepareDataDir(cfg.dataDir());
        try {
            EmbeddedKafka kafka = startWithRetries(cfg, dir, temporary, brokerOverrides, secureProtocol);
            LOG.info("Embedded Kafka started at {} (data in {}) in {} ms",
                    kafka.bootstrapServers, dir, (System.nanoTime() - startedAt) / 1_000_000);
            return kafka;
        } catch (RuntimeException | Error e) {
            if (temporary) {
                deleteQuietly(dir);
            }
            throw e;
        }
    }

    private static EmbeddedKafka startWithRetries(EmbeddedKafkaConfig cfg, Path dir, boolean temporary,
                                                  Map<String, String> overrides, String secureProtocol) {
        InetAddress bindAddress = resolve(cfg.host());
        if (cfg.port() != 0 && !FreePorts.isFree(bindAddress, cfg.port())) {
            // Fail before Kafka does: its bind failure is a page of stack traces, and retrying cannot help.
            throw new IllegalStateException("embedded Kafka cannot listen on "
                    + BrokerProperties.advertisedAddress(cfg.host(), cfg.port()) + ": the port is in use");
        }
        for (int attempt = 1; ; attempt++) {
            int clientPort = cfg.port() != 0 ? cfg.port() : FreePorts.pick(bindAddress, 1)[0];
            // The controller listener binds loopback whatever the client host is, so its port is probed there.
            int[] loopbackPorts = FreePorts.pick(resolve(BrokerProperties.CONTROLLER_HOST), 2);
            int controllerPort = loopbackPorts[0] != clientPort ? loopbackPorts[0] : loopbackPorts[1];
            Properties props = BrokerProperties.of(cfg.host(), clientPort, controllerPort, dir, overrides);
            String secure = null;
            if (secureProtocol != null) {
                int[] candidates = FreePorts.pick(bindAddress, 3);
                int securePort = java.util.Arrays.stream(candidates).filter(p -> p != clientPort && p != controllerPort)
                        .findFirst().orElseThrow();
                BrokerProperties.addListener(props, SECURE_LISTENER, secureProtocol, cfg.host(), securePort);
                secure = BrokerProperties.advertisedAddress(cfg.host(), securePort);
            }
            try {
                KafkaRaftServer server = startServer(props, dir);
                return new EmbeddedKafka(server, BrokerProperties.advertisedAddress(cfg.host(), clientPort), secure, dir,
                        temporary);
            } catch (RuntimeException e) {
                if (attempt >= BIND_ATTEMPTS || !isBindFailure(e)) {
                    throw e;
                }
                LOG.debug("Embedded Kafka could not bind port {} or {} (attempt {}), retrying with other ports",
                        clientPort, controllerPort, attempt);
            }
        }
    }

    private static KafkaRaftServer startServer(Properties props, Path dir) {
        KafkaConfig config = new KafkaConfig(props, false);
        try {
            KraftStorage.formatIfNeeded(config, dir);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the KRaft storage in " + dir + ": " + e.getMessage(), e);
        }
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            server.startup();
            return server;
        } catch (RuntimeException | Error e) {
            // A half-started server holds sockets and threads; release them before reporting the failure.
            shutdown(server);
            if (e instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("embedded Kafka failed to start on " + props.getProperty("listeners")
                    + ": " + e.getMessage(), e);
        }
    }

    /** The address clients connect to, {@code host:port}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The address of the {@value #SECURE_LISTENER} listener; only for a broker from {@link #startSecured}. */
    public String secureBootstrapServers() {
        if (secureBootstrapServers == null) {
            throw new IllegalStateException("this broker has no secured listener (expected: EmbeddedKafka.startSecured)");
        }
        return secureBootstrapServers;
    }

    /** The directory holding the broker's logs and KRaft metadata. */
    public Path dataDir() {
        return dataDir;
    }

    /** Shuts the broker down cleanly (idempotent); deletes the data directory if it was temporary. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long stoppingAt = System.nanoTime();
        shutdown(server);
        if (deleteDataDirOnClose) {
            deleteQuietly(dataDir);
        }
        LOG.info("Embedded Kafka at {} stopped in {} ms", bootstrapServers, (System.nanoTime() - stoppingAt) / 1_000_000);
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + bootstrapServers + ", " + dataDir + "]";
    }

    static void shutdown(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("Embedded Kafka did not shut down cleanly", e);
        }
    }

    private static Path prepareDataDir(Path given) {
        try {
            if (given == null) {
                return Files.createTempDirectory("healthmesh-kafka-");
            }
            return Files.createDirectories(given.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the Kafka data directory " + given, e);
        }
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(BrokerProperties.isWildcard(host) ? "0.0.0.0" : host.trim());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host: " + host + " (expected: a resolvable host name or IP address)", e);
        }
    }

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    static void deleteQuietly(Path dir) {
        try {
            Utils.delete(dir.toFile());
        } catch (IOException e) {
            LOG.warn("Cannot delete the temporary Kafka data directory {}", dir, e);
        }
    }
}
