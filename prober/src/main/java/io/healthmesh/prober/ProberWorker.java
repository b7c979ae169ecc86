package io.healthmesh.prober;

import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.OpsServer;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.prober.assign.GroupPeers;
import io.healthmesh.prober.assign.RejectedRecords;
import io.healthmesh.prober.assign.TargetAssignment;
import io.healthmesh.prober.assign.TargetSink;
import io.healthmesh.prober.health.CpuSteal;
import io.healthmesh.prober.health.FileLimit;
import io.healthmesh.prober.health.SelfMonitor;
import io.healthmesh.prober.metrics.ProberMetrics;
import io.healthmesh.prober.publish.ResultPublisher;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.prober.schedule.ProbeListener;
import io.healthmesh.prober.schedule.ProbeScheduler;
import io.healthmesh.prober.schedule.SkipReason;
import io.healthmesh.prober.schedule.Ticker;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.serde.AvroSerde;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * One prober worker: joins the region's consumer group on the targets topic, probes the targets of its
 * partitions on one timer wheel through the Netty probe engine, publishes every result through one
 * idempotent producer and serves {@code /metrics}, {@code /healthz} and {@code /readyz}. {@link #close()}
 * stops it in order: leave the group (targets stop), stop the timer and the engine, drain the results,
 * close the producer, stop the endpoint.
 */
public final class ProberWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(ProberWorker.class);
    private static final int WHEEL_SIZE = 512;
    private static final Duration DRAIN = Duration.ofSeconds(5);
    /** How long asking the group coordinator for the region's members may take before shedding. */
    private static final Duration PEERS_TIMEOUT = Duration.ofSeconds(5);

    private final ProberConfig config;
    private final PrometheusRegistry registry;
    private final ProbeScheduler scheduler;
    private final TargetAssignment assignment;
    private final OpsServer ops;
    private final String opsHost;
    /** What to close, in order. */
    private final Deque<AutoCloseable> shutdown;

    private ProberWorker(ProberConfig config, PrometheusRegistry registry, ProbeScheduler scheduler,
                         TargetAssignment assignment, OpsServer ops, Deque<AutoCloseable> shutdown) {
        this.opsHost = config.http().separateOps() && config.http().opsHost() != null ? config.http().opsHost()
                : config.httpHost();
        this.config = config;
        this.registry = registry;
        this.scheduler = scheduler;
        this.assignment = assignment;
        this.ops = ops;
        this.shutdown = shutdown;
    }

    /** Starts a worker; on failure whatever was started is closed again and the cause is thrown. */
    public static ProberWorker start(ProberConfig config) {
        requireNonNull(config, "config");
        // started last, closed first
        Deque<AutoCloseable> started = new ArrayDeque<>();
        try {
            PrometheusRegistry registry = new PrometheusRegistry();
            ProberMetrics metrics = new ProberMetrics(registry);
            // the endpoint first, so that its port (0 = any) is known to the egress policy
            AtomicReference<TargetAssignment> assigned = new AtomicReference<>();
            // the prober serves only the ops endpoints: on ops.host:ops.port when set, else on http.host:http.port
            HttpOptions http = config.http();
            InetSocketAddress bind = http.separateOps()
                    ? new InetSocketAddress(http.opsHost() != null ? http.opsHost() : config.httpHost(), http.opsPort())
                    : new InetSocketAddress(config.httpHost(), config.httpPort());
            OpsServer ops = OpsServer.builder(bind).limits(http.limits())
                    .ops(registry, () -> assigned.get() != null && assigned.get().ready())
                    .opsToken(http.opsToken()).name("prober-http").start();
            started.push(ops);

            KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(config));
            started.push(() -> producer.close(DRAIN));
            AvroSerde<ProbeResult> resultSerde = AvroSerde.forValues(ProbeResult.class, config.serdeConfig());
            started.push(resultSerde);
            ResultPublisher publisher = new ResultPublisher(producer, config.topics().probeResults(),
                    resultSerde.serializer(), config.region(), config.proberId(), config.bufferCapacity(),
                    Math.min(ResultPublisher.MAX_UNACKNOWLEDGED, config.bufferCapacity()),
                    metrics::bufferDropped, metrics::publishFailed, config.publish().urgent(), metrics::flushed)
                    .start();
            started.push(() -> publisher.close(DRAIN));

            List<String> clusterEndpoints = ClusterEndpoints.of(config, ops.port());
            logEgress(config, clusterEndpoints);
            FileLimit.check(config.maxInFlight(), FileLimit.ofThisProcess()).ifPresent(LOG::warn);
            NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                    .withUserAgent(config.userAgent())
                    .withDenyList(config.denyList())
                    .withAllowList(config.allowList())
                    .withDeniedEndpoints(clusterEndpoints)
                    .withEventLoopThreads(config.eventLoopThreads())
                    .withStallFraction(config.resilience().inconclusiveFraction())
                    .withResolver(config.resilience().dns(), config.resilience().dnsMaxPending())
                    .withTransport(config.transport()), null,
                    config.probeSource(), config.tls().material());
            started.push(engine);
            metrics.transport(engine.transport().kind().settingName());
            HashedWheelTimer timer = new HashedWheelTimer(new DefaultThreadFactory("healthmesh-prober-timer", true),
                    config.timerTickMs(), TimeUnit.MILLISECONDS, WHEEL_SIZE);
            started.push(timer::stop);
            ProbeScheduler scheduler = new ProbeScheduler(engine, new CountingPublisher(metrics, publisher), timer,
                    Ticker.system(), Clock.systemUTC(), () -> ThreadLocalRandom.current().nextDouble(),
                    config.maxInFlight(), config.jitterFraction(), config.resilience().inconclusiveFraction(),
                    Duration.ofMillis(config.timerTickMs()));
            started.push(scheduler);

            AvroSerde<TargetDefinition> definitionSerde =
                    AvroSerde.forValues(TargetDefinition.class, config.serdeConfig());
            started.push(definitionSerde);
            Admin admin = Admin.create(KafkaClients.admin(config));
            started.push(() -> admin.close(DRAIN));
            AnnouncedEndpoints announced = new AnnouncedEndpoints();
            ClusterEndpointsRefresher endpoints = new ClusterEndpointsRefresher(admin, clusterEndpoints,
                    engine.discoveredEndpoints(), announced, config.denyBrokerHosts(), System::currentTimeMillis)
                    .start();
            started.push(endpoints);
            AnnouncementFeed feed = new AnnouncementFeed(KafkaClients.endpointsReader(config),
                    config.topics().endpoints(), announced, new RejectedRecords(producer, config.topics().rejected(),
                    config.rejectedBy(), metrics::rejected), endpoints::announcementsChanged);
            started.push(feed);
            metrics.announcedEndpoints(() -> endpoints.announcedNow().denied(),
                    () -> endpoints.announcedNow().dropped(), () -> (int) announced.workersRefused());
            KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(config));
            TargetAssignment assignment = new TargetAssignment(consumer, config.topics().targets(), config.region(),
                    definitionSerde.deserializer(), TargetSink.of(scheduler::schedule, scheduler::remove),
                    producer, config.topics().rejected(), config.rejectedBy(), metrics::rejected,
                    GroupPeers.of(admin, config.groupId(), PEERS_TIMEOUT), Ticker.system()).start();
            started.push(assignment);
            assigned.set(assignment);

            metrics.gauges(scheduler::targetCount, scheduler::inFlight, publisher::buffered);
            CpuSteal steal = CpuSteal.system();
            SelfMonitor monitor = new SelfMonitor(timer, config.timerTickMs(), engine::takeWorstLoopLagMicros,
                    steal::samplePercent, config.resilience().shedding(), overloaded -> {
                        metrics.shedChanged(overloaded);
                        assignment.shed(overloaded);
                    }).start();
            started.push(monitor);
            metrics.selfHealth(monitor, assignment::heldAlone);
            LOG.info("prober {} started: region {}, group {}, ops on port {}, {}", config.proberId(), config.region(),
                    config.groupId(), ops.port(), engine.transport().describe());
            return new ProberWorker(config, registry, scheduler, assignment, ops, started);
        } catch (IOException e) {
            closeAll(started);
            throw new UncheckedIOException("cannot start the operations endpoint: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeAll(started);
            throw e;
        }
    }

    public ProberConfig config() {
        return config;
    }

    /** True once assigned and the initial read of the assigned partitions caught up ({@code /readyz}). */
    public boolean ready() {
        return assignment.ready();
    }

    /**
     * Drains this worker by hand ({@code true}: leave the group, give every target up, report not ready) or lets it
     * join again ({@code false}), as the self monitor does when the prober is overloaded; the monitor's next change
     * of verdict overrides it.
     */
    public void shed(boolean on) {
        assignment.shed(on);
    }

    /** Ids of the targets this worker probes now. */
    public Set<String> probedTargets() {
        return scheduler.targetIds();
    }

    /** Port of the operations endpoint. */
    public int opsPort() {
        return ops.port();
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public List<BoundListener> boundListeners() {
        return List.of(new BoundListener("ops", opsHost, ops.port()));
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(config.topics().prefix());
    }

    /** Stops the worker in order (see the class comment); a second call does nothing. */
    @Override
    public void close() {
        synchronized (shutdown) {
            if (shutdown.isEmpty()) {
                return;
            }
            LOG.info("prober {} stopping", config.proberId());
            closeAll(shutdown);
        }
    }

    private static void logEgress(ProberConfig config, List<String> clusterEndpoints) {
        LOG.info("egress policy: deny {}, allow {}, cluster endpoints denied {}", config.denyList(),
                config.allowList().isEmpty() ? "nothing more" : config.allowList(), clusterEndpoints);
        List<String> dropped = ProbeEngineConfig.DEFAULT_DENY_LIST.stream()
                .filter(block -> !config.denyList().contains(block)).toList();
        if (!dropped.isEmpty()) {
            LOG.warn("deny.list leaves out default blocks {}: probes may reach them", dropped);
        }
    }

    private static void closeAll(Deque<AutoCloseable> started) {
        while (!started.isEmpty()) {
            AutoCloseable next = started.pop();
            try {
                next.close();
            } catch (Exception e) {
                LOG.warn("error while stopping the prober", e);
            }
        }
    }

    /** Counts what the scheduler does and hands finished probes to the publisher; never blocks. */
    private record CountingPublisher(ProberMetrics metrics, ResultPublisher publisher) implements ProbeListener {

        @Override
        public void completed(CompletedProbe probe) {
            metrics.completed(probe);
            publisher.offer(probe);
        }

        @Override
        public void skipped(TargetSpec target, SkipReason reason) {
            metrics.skipped(reason);
        }

        @Override
        public void delayed(TargetSpec target) {
            metrics.delayed();
        }
    }
}
