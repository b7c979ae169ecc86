package io.healthmesh.pipeline;

import io.grpc.ManagedChannel;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.testkit.grpc.LoopbackBackends;
import io.healthmesh.testkit.grpc.XdsChannels;
import io.healthmesh.xds.XdsConfig;
import io.healthmesh.xds.XdsWorker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole path from a probe to a proxyless gRPC client: a real prober probes three loopback gRPC backends (TCP
 * targets of one group), the real aggregator decides, the xds role serves the group, and grpc-java's own xDS client
 * ({@code xds:///<group>}) sends calls. One backend at a time stops accepting connections (the prober's connects are
 * refused; the client's open connection stays, so only healthmesh's verdict can take the backend out of its list),
 * then accepts again.
 *
 * <p>Asserted, for every flip: the client stops sending to the stopped backend within {@link #FOLLOW_BOUND} and sends
 * it nothing more while it is down; once it accepts again, calls reach it within the same bound; no call fails
 * throughout (the client never holds an empty assignment) and no group event routes nobody. Measured and logged (a
 * line starting {@code xds-e2e:}), never asserted: per direction, (a) the backend's change to the client following,
 * and (b) the deciding probe's result (the one that completed the threshold: its start plus its latency) to the client
 * on the new assignment (its last call to the stopped backend, its first call to the restarted one).
 *
 * <p>{@code -Dxds.e2e.flips=N} sets the number of stop/start cycles (default 3, for CI); see docs/BENCHMARKS.md for
 * the measuring run.
 */
@ExtendWith(KafkaExtension.class)
class XdsFollowsProbesIT {

    private static final Logger LOG = LoggerFactory.getLogger(XdsFollowsProbesIT.class);
    private static final String GROUP = "grpc";
    private static final int BACKENDS = 3;
    private static final int INTERVAL_MS = 250;
    private static final int TIMEOUT_MS = 200;
    private static final int THRESHOLD = 2;
    /** Stop/start cycles; each gives one sample per direction. */
    private static final int FLIPS = Math.max(1, Math.min(500, Integer.getInteger("xds.e2e.flips", 3)));
    /**
     * A generous behavioural bound from a backend's change to the client following it: the detection window is about
     * 0.75 s, but an aggregator whose transactions are retried on a saturated machine has taken over 15 s.
     */
    private static final Duration FOLLOW_BOUND = Duration.ofSeconds(30);
    /** Calls in a row that must avoid a stopped backend before the client counts as having left it. */
    private static final int SETTLED = 30;
    /** Pause between two calls: about a thousand calls a second, a few ms between two calls to one backend. */
    private static final long CALL_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    @TempDir
    Path stateDir;

    private int failedCalls;

    @Test
    void aGrpcClientFollowsTheProbersVerdictsThroughTheXdsRole(TestKafka kafka) {
        try (LoopbackBackends backends = LoopbackBackends.withRelays(BACKENDS);
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            pipeline.startProber("a", List.of());
            for (int i = 0; i < BACKENDS; i++) {
                pipeline.define(TargetSpec.of(id(i), GROUP, "127.0.0.1", backends.port(i), Protocol.TCP)
                        .withTiming(INTERVAL_MS, TIMEOUT_MS).withThresholds(THRESHOLD, THRESHOLD));
            }
            Await.until(Pipeline.STARTUP, () -> pipeline.groups().of(GROUP).stream()
                            .anyMatch(g -> g.value() != null && g.value().getHealthy() == BACKENDS),
                    () -> "the group never had every member HEALTHY: " + pipeline.groups().of(GROUP));

            try (XdsWorker xds = XdsWorker.start(xdsConfig(kafka, pipeline))) {
                Await.until(Pipeline.STARTUP, xds::ready, () -> "xds not ready");
                ManagedChannel channel = XdsChannels.open(GROUP, xds.xdsPort(), "pipeline-" + pipeline.region("a"));
                try {
                    // the first call loads and starts the whole xDS client: seconds on a busy machine
                    Await.until(Pipeline.STARTUP, () -> backends.call(channel, true) >= 0,
                            () -> "no answer through the xDS channel: " + backends.lastError());
                    Set<Integer> seen = new HashSet<>();
                    Await.until(FOLLOW_BOUND, () -> {
                        seen.add(backends.call(channel, true));
                        return seen.containsAll(Set.of(0, 1, 2));
                    }, () -> "calls reached only " + seen);
                    flips(pipeline, backends, channel);
                } finally {
                    channel.shutdownNow();
                }
            }
            assertThat(pipeline.groups().of(GROUP)).as("no group event routes nobody")
                    .allSatisfy(g -> assertThat(g.value().getRoutable()).isNotEmpty());
        }
    }

    private void flips(Pipeline pipeline, LoopbackBackends backends, ManagedChannel channel) {
        List<Long> downFollow = new ArrayList<>();
        List<Long> downProbe = new ArrayList<>();
        List<Long> upFollow = new ArrayList<>();
        List<Long> upProbe = new ArrayList<>();
        List<Long> decided = new ArrayList<>();
        for (int flip = 0; flip < FLIPS; flip++) {
            int b = flip % BACKENDS;
            long stoppedAt = System.currentTimeMillis();
            backends.stopAccepting(b);
            long leftAt = awaitLeft(backends, channel, b, stoppedAt);
            long downProbeEnd = decidingProbeEnd(pipeline, b, HealthStatus.UNHEALTHY, stoppedAt, decided);
            downFollow.add(leftAt - stoppedAt);
            downProbe.add(leftAt - downProbeEnd);

            long startedAt = System.currentTimeMillis();
            backends.resumeAccepting(b);
            long backAt = awaitBack(backends, channel, b, startedAt);
            long upProbeEnd = decidingProbeEnd(pipeline, b, HealthStatus.HEALTHY, startedAt, decided);
            upFollow.add(backAt - startedAt);
            upProbe.add(backAt - upProbeEnd);
            LOG.info("flip {} of backend {}: probe result -> client {} ms down, {} ms up", flip + 1, b,
                    leftAt - downProbeEnd, backAt - upProbeEnd);
        }
        List<Long> probe = new ArrayList<>(downProbe);
        probe.addAll(upProbe);
        LOG.info("xds-e2e: {} flips (stop + start), interval {} ms, thresholds {}; ms p50/p99/max:"
                        + " probe result -> client on the new assignment {} (down {}, up {});"
                        + " backend stop -> client stops sending {}; backend start -> client sends again {};"
                        + " probe result -> state event produced {}",
                FLIPS, INTERVAL_MS, THRESHOLD, percentiles(probe), percentiles(downProbe), percentiles(upProbe),
                percentiles(downFollow), percentiles(upFollow), percentiles(decided));
        assertThat(failedCalls).as(() -> "calls that failed (last: " + backends.lastError() + ")").isZero();
    }

    /**
     * Calls until {@link #SETTLED} calls in a row avoid backend {@code b}, then checks that it gets nothing more while
     * down; returns the instant its last call ended (the client left it then, within one round of calls).
     */
    private long awaitLeft(LoopbackBackends backends, ManagedChannel channel, int b, long since) {
        long deadline = since + FOLLOW_BOUND.toMillis();
        long lastToB = since;
        int run = 0;
        while (run < SETTLED) {
            assertThat(System.currentTimeMillis()).as(() -> "the client still sends to stopped backend " + b
                    + " " + FOLLOW_BOUND + " after it stopped accepting").isLessThan(deadline);
            int answered = call(backends, channel);
            if (answered == b) {
                lastToB = System.currentTimeMillis();
                run = 0;
            } else {
                run++;
            }
        }
        long answeredBefore = backends.answered(b);
        for (int i = 0; i < 3 * SETTLED; i++) {
            call(backends, channel);
        }
        assertThat(backends.answered(b)).as("calls to stopped backend " + b + " after the client left it")
                .isEqualTo(answeredBefore);
        return lastToB;
    }

    /** Calls until backend {@code b} answers one; returns the instant that call ended. */
    private long awaitBack(LoopbackBackends backends, ManagedChannel channel, int b, long since) {
        long deadline = since + FOLLOW_BOUND.toMillis();
        while (call(backends, channel) != b) {
            assertThat(System.currentTimeMillis()).as(() -> "restarted backend " + b + " got no call "
                    + FOLLOW_BOUND + " after it accepted again").isLessThan(deadline);
        }
        return System.currentTimeMillis();
    }

    private int call(LoopbackBackends backends, ManagedChannel channel) {
        LockSupport.parkNanos(CALL_PAUSE_NANOS);
        int answered = backends.call(channel, false);
        if (answered < 0) {
            failedCalls++;
        }
        return answered;
    }

    /**
     * The instant the probe result that turned backend {@code b} to {@code status} (after {@code since}) was known:
     * the state event's last applied result (its start) plus that result's latency. Adds the time from that instant
     * to the event's production to {@code decided}.
     */
    private static long decidingProbeEnd(Pipeline pipeline, int b, HealthStatus status, long since, List<Long> decided) {
        String id = id(b);
        Received<TargetHealth> event = Await.value(FOLLOW_BOUND, () -> pipeline.health().of(id).stream()
                        .filter(r -> r.receivedAtMs() >= since && r.value() != null && r.value().getStatus() == status)
                        .findFirst(),
                () -> id + " never " + status + " after " + since);
        Long startedAt = event.value().getLastResultAtMs();
        assertThat(startedAt).as(id + ": the state event names its last result").isNotNull();
        ProbeResult deciding = Await.value(FOLLOW_BOUND, () -> pipeline.results().of(id).stream()
                        .map(Received::value)
                        .filter(r -> r.getStartedAtMs() == startedAt)
                        .findFirst(),
                () -> id + ": no probe result started at " + startedAt);
        long end = deciding.getStartedAtMs() + deciding.getLatencyMicros() / 1000;
        decided.add(event.value().getUpdatedAtMs() - end);
        return end;
    }

    private static String id(int backend) {
        return GROUP + "-" + backend;
    }

    private static XdsConfig xdsConfig(TestKafka kafka, Pipeline pipeline) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", pipeline.aggregatorConfig().topics().prefix());
        s.put("xds.host", "127.0.0.1");
        s.put("xds.port", "0");
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        return XdsConfig.from(s);
    }

    /** "p50/p99/max" by nearest rank. */
    private static String percentiles(List<Long> samples) {
        List<Long> sorted = new ArrayList<>(samples);
        sorted.sort(Long::compare);
        return rank(sorted, 0.50) + "/" + rank(sorted, 0.99) + "/" + sorted.get(sorted.size() - 1);
    }

    private static long rank(List<Long> sorted, double quantile) {
        return sorted.get(Math.max(0, (int) Math.ceil(quantile * sorted.size()) - 1));
    }
}
