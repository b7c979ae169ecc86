package io.healthmesh.prober.metrics;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.prober.health.SelfMonitor;
import io.healthmesh.prober.publish.ResultPublisher;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.prober.schedule.SkipReason;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Every prober metric, on one registry (the worker's own, so two workers in one JVM do not collide).
 * Label children for the fixed label sets are created up front: counting a probe allocates nothing.
 */
public final class ProberMetrics {

    private static final double[] LATENCY_BOUNDS =
            {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
    /** Days until a TLS chain's earliest expiry: the thresholds a rule or a dashboard picks from. */
    private static final double[] CERT_DAYS_BOUNDS = {0, 1, 7, 14, 30, 90, 365};
    private static final long DAY_MS = 86_400_000L;
    private static final double[] LAG_BOUNDS =
            {0.0001, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 5};

    private final PrometheusRegistry registry;
    private final Map<Protocol, Map<Outcome, CounterDataPoint>> probes = new EnumMap<>(Protocol.class);
    private final Map<Protocol, DistributionDataPoint> latency = new EnumMap<>(Protocol.class);
    private final DistributionDataPoint schedulingLag;
    private final DistributionDataPoint certDaysLeft;
    private final Map<SkipReason, CounterDataPoint> skipped = new EnumMap<>(SkipReason.class);
    private final CounterDataPoint delayed;
    private final Map<InconclusiveCause, CounterDataPoint> inconclusive = new EnumMap<>(InconclusiveCause.class);
    private final CounterDataPoint bufferDropped;
    private final CounterDataPoint publishFailures;
    private final Map<ResultPublisher.Flush, CounterDataPoint> flushes = new EnumMap<>(ResultPublisher.Flush.class);
    private final Counter rejected;
    private final CounterDataPoint shed;

    public ProberMetrics(PrometheusRegistry registry) {
        this.registry = requireNonNull(registry, "registry");
        // the probe counter and both histograms are updated on every probe, from the event loops: without
        // exemplars (no probe runs inside a trace, and the exemplar sampler would be asked on every update)
        Counter probeCounter = Counter.builder().name("healthmesh_prober_probes")
                .help("Probes finished, by protocol and outcome.")
                .labelNames("protocol", "outcome").withoutExemplars().register(registry);
        Histogram latencyHistogram = Histogram.builder().name("healthmesh_prober_probe_latency_seconds")
                .help("Probe duration from start to verdict.")
                .labelNames("protocol").classicOnly().classicUpperBounds(LATENCY_BOUNDS).withoutExemplars()
                .register(registry);
        for (Protocol protocol : Protocol.values()) {
            Map<Outcome, CounterDataPoint> byOutcome = new EnumMap<>(Outcome.class);
            for (Outcome outcome : Outcome.values()) {
                byOutcome.put(outcome, probeCounter.labelValues(protocol.name(), outcome.name()));
            }
            probes.put(protocol, byOutcome);
            latency.put(protocol, latencyHistogram.labelValues(protocol.name()));
        }
        schedulingLag = Histogram.builder().name("healthmesh_prober_scheduling_lag_seconds")
                .help("How late probes started against their plan (timer tick, in-flight bound, load).")
                .classicOnly().classicUpperBounds(LAG_BOUNDS).withoutExemplars().register(registry);
        // per probe, not per target: a million targets add no series, and the rule reads the buckets' increase
        certDaysLeft = Histogram.builder().name("healthmesh_prober_tls_cert_days_left")
                .help("TLS probes (HTTPS, GRPC over TLS) by whole days until the earliest expiry in the server's"
                        + " chain; negative once expired.")
                .classicOnly().classicUpperBounds(CERT_DAYS_BOUNDS).withoutExemplars().register(registry);
        Counter skippedCounter = Counter.builder().name("healthmesh_prober_probes_skipped")
                .help("Fixed-rate slots that passed without a probe, by reason.")
                .labelNames("reason").register(registry);
        for (SkipReason reason : SkipReason.values()) {
            skipped.put(reason, skippedCounter.labelValues(reason.name()));
        }
        Counter inconclusiveCounter = Counter.builder().name("healthmesh_prober_inconclusive")
                .help("INCONCLUSIVE results (the prober's own trouble, not the target's), by cause.")
                .labelNames("cause").register(registry);
        for (InconclusiveCause cause : InconclusiveCause.values()) {
            inconclusive.put(cause, inconclusiveCounter.labelValues(cause.label()));
        }
        delayed = Counter.builder().name("healthmesh_prober_probes_delayed")
                .help("Fixed-delay probes that waited for a free in-flight slot.").register(registry);
        bufferDropped = Counter.builder().name("healthmesh_prober_buffer_dropped")
                .help("Results dropped from the full publish buffer (oldest first) while Kafka was away.")
                .register(registry);
        publishFailures = Counter.builder().name("healthmesh_prober_publish_failures")
                .help("Results Kafka did not accept (delivery timeout or a non-retriable error).")
                .register(registry);
        Counter flushCounter = Counter.builder().name("healthmesh_prober_publish_flushes")
                .help("Times the producer was told to send what it holds at once, by reason: urgent (a result that may "
                        + "change a target's state, publish.urgent), window_full (as many results unacknowledged as "
                        + "the publisher lets the producer hold).").labelNames("reason").register(registry);
        for (ResultPublisher.Flush reason : ResultPublisher.Flush.values()) {
            flushes.put(reason, flushCounter.labelValues(reason.name().toLowerCase(java.util.Locale.ROOT)));
        }
        shed = Counter.builder().name("healthmesh_prober_shed")
                .help("Times this prober became overloaded and gave its targets up.").register(registry);
        rejected = Counter.builder().name("healthmesh_prober_rejected_definitions")
                .help("Target definitions sent to the rejected topic, by reason.")
                .labelNames("reason").register(registry);
    }

    /** Registers the gauges read from live state: targets owned, probes in flight, buffered results. */
    public void gauges(IntSupplier targetsOwned, IntSupplier inFlight, IntSupplier buffered) {
        gauge("healthmesh_prober_targets_owned", "Targets this worker probes now.", targetsOwned);
        gauge("healthmesh_prober_probes_in_flight", "Probes running now.", inFlight);
        gauge("healthmesh_prober_buffered_results", "Results waiting to be handed to Kafka.", buffered);
    }

    /** Registers the gauges of the prober's own health (the latest one-second sample) and whether it sheds. */
    public void selfHealth(SelfMonitor monitor, BooleanSupplier heldAlone) {
        doubleGauge("healthmesh_prober_timer_lag_seconds",
                "How late the timer wheel ran a task in the last second, beyond its tick.",
                () -> monitor.lastSample().timerLagMs() / 1e3);
        doubleGauge("healthmesh_prober_event_loop_lag_seconds",
                "Worst lateness of a task on the probe engine's event loops in the last second.",
                () -> monitor.lastSample().loopLagMs() / 1e3);
        doubleGauge("healthmesh_prober_cpu_steal_ratio",
                "Share of CPU time stolen by the hypervisor in the last second (NaN where /proc/stat does not show it).",
                () -> monitor.lastSample().stealPercent() / 100);
        doubleGauge("healthmesh_prober_overloaded",
                "1 while this prober judges itself overloaded (it sheds its load unless it is alone in its group), else 0.",
                () -> monitor.overloaded() ? 1 : 0);
        doubleGauge("healthmesh_prober_shed_held",
                "1 while this prober is overloaded but keeps its targets: no other prober of the region could take them.",
                () -> heldAlone.getAsBoolean() ? 1 : 0);
    }

    /**
     * Registers {@code healthmesh_prober_transport_info{transport="..."} 1}: the transport the probe engine chose at
     * start ({@code io_uring}, {@code epoll} or {@code nio}).
     */
    /**
     * The endpoints the workers announce: how many are denied now, how many are over the bound (not denied), and
     * how many workers were not kept at all.
     */
    public void announcedEndpoints(IntSupplier denied, IntSupplier dropped, IntSupplier workersRefused) {
        gauge("healthmesh_prober_endpoints_announced_denied",
                "Endpoints announced by the workers on the endpoints topic and denied now.", denied);
        gauge("healthmesh_prober_endpoints_announced_dropped",
                "Endpoints announced beyond the bound a prober keeps (4096), not denied.", dropped);
        gauge("healthmesh_prober_endpoints_workers_refused",
                "Workers whose announcement was not kept because 1024 workers were.", workersRefused);
    }

    public void transport(String name) {
        Info.builder().name("healthmesh_prober_transport")
                .help("The probe engine's Netty transport, chosen at start (setting transport).")
                .labelNames("transport").register(registry).setLabelValues(requireNonNull(name, "name"));
    }

    /** Counts a change to overloaded. */
    public void shedChanged(boolean overloaded) {
        if (overloaded) {
            shed.inc();
        }
    }

    private void doubleGauge(String name, String help, java.util.function.DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.getAsDouble())).register(registry);
    }

    private void gauge(String name, String help, IntSupplier value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.getAsInt())).register(registry);
    }

    public void completed(CompletedProbe probe) {
        Protocol protocol = probe.target().protocol();
        Outcome outcome = probe.report().outcome();
        probes.get(protocol).get(outcome).inc();
        if (outcome == Outcome.INCONCLUSIVE) {
            inconclusive.get(InconclusiveCause.ofDetail(probe.report().detail())
                    .orElse(InconclusiveCause.INTERNAL_ERROR)).inc();
        }
        latency.get(protocol).observe(probe.report().latencyMicros() / 1e6);
        schedulingLag.observe(probe.schedulingLagMicros() / 1e6);
        Long chainNotAfterMs = probe.report().chainNotAfterMs();
        if (chainNotAfterMs != null) {
            certDaysLeft.observe(Math.floorDiv(chainNotAfterMs - probe.startedAtMs(), DAY_MS));
        }
    }

    public void skipped(SkipReason reason) {
        skipped.get(reason).inc();
    }

    public void delayed() {
        delayed.inc();
    }

    public void bufferDropped() {
        bufferDropped.inc();
    }

    public void flushed(ResultPublisher.Flush why) {
        flushes.get(why).inc();
    }

    public void publishFailed() {
        publishFailures.inc();
    }

    public void rejected(String reason) {
        rejected.labelValues(reason).inc();
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
