package io.healthmesh.aggregator;

import io.healthmesh.aggregator.query.QueryApi;
import io.healthmesh.aggregator.topology.AggregatorTopology;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.ops.OpsServer;
import io.healthmesh.ops.RoleListeners;
import io.healthmesh.status.StatusService;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * The aggregator role: checks or creates the topics, starts Kafka Streams on {@link AggregatorTopology} with
 * exactly-once v2, and serves {@code /metrics} (Kafka Streams metrics and the aggregator's own), {@code /healthz},
 * {@code /readyz} (200 while Streams is RUNNING) and the query API on one HTTP port, and with
 * {@code status.page.enabled} the status page ({@code /status/}) too. A stream thread that dies
 * (e.g. the schema registry is unreachable) is replaced and resumes from the last committed offsets, so a transient
 * outage neither loses nor repeats an event.
 */
public final class AggregatorWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(AggregatorWorker.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaStreams streams;
    private final RoleListeners listeners;
    private final HostInfo advertised;
    private final StatusService status;
    private final AtomicInteger threadFailures;
    private final PrometheusRegistry registry;
    private final String topicPrefix;
    private final boolean advertisedConfigured;

    private AggregatorWorker(KafkaStreams streams, RoleListeners listeners, HostInfo advertised, StatusService status,
                             AtomicInteger threadFailures, PrometheusRegistry registry, String topicPrefix,
                             boolean advertisedConfigured) {
        this.advertisedConfigured = advertisedConfigured;
        this.registry = registry;
        this.topicPrefix = topicPrefix;
        this.streams = streams;
        this.listeners = listeners;
        this.advertised = advertised;
        this.status = status;
        this.threadFailures = threadFailures;
    }

    /**
     * Stream threads that died and were replaced since the start. Only a registry outage should ever count here
     * (BEHAVIOUR.md section 9: no record can stop a partition); anything else is a bug to report.
     */
    public int streamThreadFailures() {
        return threadFailures.get();
    }

    /**
     * Starts the worker; returns once Kafka Streams is started (not yet RUNNING: see {@link #isRunning()}).
     *
     * @throws IllegalStateException when an existing topic disagrees with the design (partitions, cleanup policy), or
     *     when {@code replication.factor} is 1 and {@code replication.single.copy.allowed} is not set
     */
    public static AggregatorWorker start(AggregatorConfig config) {
        requireNonNull(config, "config");
        ensureTopics(config);
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        AtomicReference<KafkaStreams> running = new AtomicReference<>();
        HttpOptions http = config.http();
        java.util.function.BooleanSupplier ready =
                () -> running.get() != null && running.get().state() == KafkaStreams.State.RUNNING;
        RoleListeners listeners = RoleListeners.start("aggregator", config.httpHost(), config.httpPort(), http, registry,
                ready);
        OpsServer api = listeners.api();
        http.openApiWarning().ifPresent(LOG::warn);
        StatusService status = null;
        try {
            HostInfo advertised = HostInfo.buildFromEndpoint(config.applicationServer() != null
                    ? config.applicationServer() : defaultHost(config.httpHost()) + ":" + api.port());
            KafkaStreams streams = new KafkaStreams(AggregatorTopology.build(config, config.serdeConfig()),
                    config.streamsProperties(advertised.host() + ":" + advertised.port()));
            AtomicInteger failures = new AtomicInteger();
            streams.setUncaughtExceptionHandler(e -> {
                failures.incrementAndGet();
                LOG.error("stream thread failed; replacing it, it resumes from the last commit", e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            streams.setStateListener((now, before) -> LOG.info("aggregator {} -> {}", before, now));
            registry.register(new KafkaMetricsBridge(streams::metrics));
            new QueryApi(streams, advertised, http.apiToken(), config.historyLength()).mount(api);
            if (config.statusPage()) {
                // the status page is a route of the query API's listener: the same token and limits apply
                Map<String, String> client = new HashMap<>(config.kafka());
                client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                status = StatusService.start(client, config.serdeConfig(), config.topics(), config.status(), registry,
                        api);
            }
            running.set(streams);
            streams.start();
            LOG.info("aggregator {} started: http port {}, ops port {}, application.server {}, status page {}, {}",
                    config.applicationId(), api.port(), listeners.ops().port(), advertised,
                    config.statusPage() ? "on" : "off", http);
            return new AggregatorWorker(streams, listeners, advertised, status, failures, registry,
                    config.topics().prefix(), config.applicationServer() != null);
        } catch (RuntimeException e) {
            if (status != null) {
                status.close();
            }
            listeners.close();
            throw e;
        }
    }

    private static void ensureTopics(AggregatorConfig config) {
        Properties admin = new Properties();
        admin.putAll(config.kafka());
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        // Kafka Streams creates the changelog and repartition topics with the same factor, whether or not
        // healthmesh's own topics exist already
        config.replication().requireCreatable(List.of(config.applicationId() + "'s changelog and repartition topics"));
        try (Admin client = Admin.create(admin)) {
            TopicSetup.ensurePatiently(client, config.topics(), config.partitions(), config.replication(),
                    TopicSetup.START_PATIENCE);
            TransactionBackoffCheck.logAdvice(client);
        }
    }

    private static String defaultHost(String bindHost) {
        return bindHost.equals("0.0.0.0") || bindHost.equals("::") ? "127.0.0.1" : bindHost;
    }

    /** True while Kafka Streams is RUNNING (what {@code /readyz} answers). */
    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** The Kafka Streams state, for logs and tests. */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /** The bound HTTP port of the query API (and of the ops endpoints unless {@code ops.port} is set). */
    public int httpPort() {
        return listeners.api().port();
    }

    /** The bound port of {@code /metrics}, {@code /healthz} and {@code /readyz}. */
    public int opsPort() {
        return listeners.ops().port();
    }

    /** The listeners, and the query API at its configured {@code application.server} (where the others reach it). */
    @Override
    public List<BoundListener> boundListeners() {
        List<BoundListener> out = new java.util.ArrayList<>(listeners.bound());
        if (advertisedConfigured) {
            out.add(new BoundListener("http", advertised.host(), advertised.port()));
        }
        return out;
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(topicPrefix);
    }

    /** The {@code application.server} this instance advertises. */
    public HostInfo advertised() {
        return advertised;
    }

    /**
     * Closes Kafka Streams cleanly (commits, flushes, leaves the group), then the HTTP server. Leaving the group
     * explicitly matters: without it the partitions stay with this member until its session times out (45 s by
     * default), so a restarted or surviving instance would wait that long before it processes them.
     */
    @Override
    public void close() {
        try {
            streams.close(new KafkaStreams.CloseOptions().timeout(CLOSE_TIMEOUT).leaveGroup(true));
        } finally {
            try {
                if (status != null) {
                    status.close();
                }
            } finally {
                listeners.close();
            }
        }
    }
}
