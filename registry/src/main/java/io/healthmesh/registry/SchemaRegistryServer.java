package io.healthmesh.registry;

import io.healthmesh.ops.BoundedHttpPipeline;
import io.healthmesh.ops.HttpLimits;
import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.contract.registry.SchemaRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The {@code registry} role: a Confluent-compatible schema registry over HTTP (Netty), its
 * schemas kept in a compacted Kafka topic that is re-read at start, so ids survive restarts.
 * Exactly one instance writes a topic: it reads the topic only when it starts (no leader election), so a
 * second replica on the same topic would hand out ids the first does not know.
 * Requests pass {@link RegistryAccess} (HTTP basic users and roles, deletes and configuration changes off
 * unless enabled); the listener may use TLS; the server applies {@link HttpLimits} (connection cap in all and per
 * client, a reserve for the probes, idle, request and answer deadlines, bounded threads and queue). Request bodies are limited to {@link #MAX_BODY_BYTES}.
 * The same port serves {@code /metrics}, {@code /healthz} and {@code /readyz}, without credentials.
 */
public final class SchemaRegistryServer implements AutoCloseable, ListeningWorker {

    /** Largest request body accepted; larger ones get a 413. */
    public static final int MAX_BODY_BYTES = 1 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryServer.class);

    private final EventLoopGroup loop;
    private final ExecutorService apiExecutor;
    private final Channel channel;
    private final ChannelGroup connections;
    private final String url;
    private final AutoCloseable log;
    private final OpsRoutes opsRoutes;
    private final BoundListener listener;
    private volatile List<String> topicPrefixes = List.of();

    private SchemaRegistryServer(EventLoopGroup loop, ExecutorService apiExecutor, Channel channel, ChannelGroup connections,
                                 String url, AutoCloseable log, OpsRoutes opsRoutes, BoundListener listener) {
        this.opsRoutes = opsRoutes;
        this.listener = listener;
        this.loop = loop;
        this.apiExecutor = apiExecutor;
        this.channel = channel;
        this.connections = connections;
        this.url = url;
        this.log = log;
    }

    /**
     * Starts a registry on Kafka: makes sure the topic exists (compacted, one partition), replays
     * it, then listens.
     *
     * @throws IllegalStateException when the topic cannot be created or read, or has the wrong shape
     */
    public static SchemaRegistryServer start(RegistryConfig config) {
        requireNonNull(config, "config");
        KafkaRegistryLog log = KafkaRegistryLog.open(config);
        try {
            SchemaRegistry registry = SchemaRegistry.open(log);
            ContractSchemas.register(registry, config.contractPrefixes());
            SchemaRegistryServer server = serve(config.host(), config.port(), registry, log, config.security(), config.limits());
            server.topicPrefixes = List.copyOf(config.contractPrefixes());
            LOG.info("Schema registry on {} (topic {}, {})", server.url(), config.topic(), config.security());
            return server;
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
    }

    /** Starts a registry that keeps its schemas in memory only (tests, throw-away demos). */
    public static SchemaRegistryServer startInMemory(String host, int port) {
        return startInMemory(host, port, RegistrySecurity.open());
    }

    /** Starts an in-memory registry with the given security (tests). */
    public static SchemaRegistryServer startInMemory(String host, int port, RegistrySecurity security) {
        return serve(host, port, SchemaRegistry.inMemory(), () -> { }, security, defaultLimits());
    }

    static HttpLimits defaultLimits() {
        return HttpLimits.defaults().withMaxBodyBytes(MAX_BODY_BYTES);
    }

    /** Serves a given registry, open (tests hand one in to inspect it). */
    static SchemaRegistryServer serve(String host, int port, SchemaRegistry registry, AutoCloseable log) {
        return serve(host, port, registry, log, RegistrySecurity.open(), defaultLimits());
    }

    static SchemaRegistryServer serve(String host, int port, SchemaRegistry registry, AutoCloseable log,
                                      RegistrySecurity security, HttpLimits limits) {
        SslContext tls = security.tls() == null ? null : security.tls().serverContext();
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ExecutorService apiExecutor = BoundedHttpPipeline.requestThreads("registry-api", limits.threads(),
                limits.queue());
        OpsRoutes opsRoutes = new OpsRoutes();
        RegistryHttpHandler handler = new RegistryHttpHandler(new RegistryApi(registry), opsRoutes, apiExecutor,
                new RegistryAccess(security));
        BoundedHttpPipeline pipeline = new BoundedHttpPipeline(limits, tls,
                () -> new BoundedHttpAggregator(limits.maxBodyBytes()), handler);
        try {
            Channel channel = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(pipeline)
                    .bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
            int boundPort = ((InetSocketAddress) channel.localAddress()).getPort();
            String scheme = tls == null ? "http://" : "https://";
            return new SchemaRegistryServer(loop, apiExecutor, channel, pipeline.connections(), scheme + urlHost(host) + ":" + boundPort,
                    log, opsRoutes, new BoundListener("registry", host, boundPort));
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            apiExecutor.shutdownNow();
            throw new IllegalStateException("Cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static String urlHost(String host) {
        if (host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
            return "127.0.0.1";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }

    /** The base URL of the API, e.g. {@code http://127.0.0.1:8081}. */
    public String url() {
        return url;
    }

    @Override
    public List<BoundListener> boundListeners() {
        return List.of(listener);
    }

    @Override
    public PrometheusRegistry metrics() {
        return opsRoutes.metrics();
    }

    /** The prefixes whose contract schemas it registers ({@code registry.contract.topic.prefixes}). */
    @Override
    public List<String> topicPrefixes() {
        return topicPrefixes;
    }

    /** Stops listening, closes the open connections, then the Kafka clients. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        // the API threads stop while the event loop still runs: a late answer to a closed connection fails there quietly
        apiExecutor.shutdown();
        try {
            // a registration in flight finishes its Kafka write before the producer closes
            if (!apiExecutor.awaitTermination(35, TimeUnit.SECONDS)) {
                apiExecutor.shutdownNow();
            }
        } catch (InterruptedException e) {
            apiExecutor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        loop.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        try {
            log.close();
        } catch (Exception e) {
            LOG.warn("Schema registry log did not close cleanly", e);
        }
    }
}
