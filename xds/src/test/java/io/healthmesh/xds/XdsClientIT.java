package io.healthmesh.xds;

import io.grpc.ManagedChannel;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.grpc.LoopbackBackends;
import io.healthmesh.testkit.grpc.XdsChannels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * grpc-java's own xDS client ({@code xds:///<group>}, proxyless) against the xds role fed by a real broker: calls go
 * only to the served members of a group, follow a member going down and up again, reach every member while the group
 * fails open, and keep flowing through a restart of the xds role.
 */
@ExtendWith(KafkaExtension.class)
class XdsClientIT {

    private static final Logger LOG = LoggerFactory.getLogger(XdsClientIT.class);
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Calls in a row that must all avoid a withdrawn backend before the switch counts as done. */
    private static final int SETTLED = 30;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T keep(T closeable) {
        open.add(closeable);
        return closeable;
    }

    private static XdsConfig config(TestKafka kafka, StateTopicWriter w, int xdsPort) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", w.topics().prefix());
        s.put("xds.host", "127.0.0.1");
        s.put("xds.port", Integer.toString(xdsPort));
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        return XdsConfig.from(s);
    }

    /** A channel {@code xds:///<group>} whose xDS client's bootstrap names the server on {@code port}. */
    private ManagedChannel channel(String group, int port) {
        ManagedChannel channel = XdsChannels.open(group, port, "xds-it-" + group);
        keep(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        return channel;
    }

    /**
     * Waits for the channel's first answer: its first call loads and starts the whole xDS client (seconds on a busy
     * machine), longer than one call's deadline.
     */
    private static void firstAnswer(LoopbackBackends backends, ManagedChannel channel) {
        Await.until(PATIENCE, () -> backends.call(channel, true) >= 0,
                () -> "no answer through the xDS channel: " + backends.lastError());
    }

    /** Defines three members of {@code group} on the backends and publishes their states and the group's event. */
    private static void define(StateTopicWriter w, String group, LoopbackBackends backends) {
        for (int i = 0; i < 3; i++) {
            w.define(group + "-t" + i, group, "127.0.0.1", backends.port(i), 10, Map.of());
        }
    }

    private static void states(StateTopicWriter w, String group, boolean failOpen, HealthStatus... statuses) {
        Map<String, HealthStatus> byId = new HashMap<>();
        List<String> routable = new ArrayList<>();
        for (int i = 0; i < statuses.length; i++) {
            String id = group + "-t" + i;
            byId.put(id, statuses[i]);
            w.state(id, group, statuses[i], System.currentTimeMillis());
            if (failOpen || statuses[i] == HealthStatus.HEALTHY || statuses[i] == HealthStatus.DISABLED) {
                routable.add(id);
            }
        }
        w.group(group, failOpen, byId, routable, System.currentTimeMillis());
    }

    /** The backends that answered {@code calls} calls. */
    private static Set<Integer> answering(LoopbackBackends backends, ManagedChannel channel, int calls) {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            seen.add(backends.call(channel, true));
        }
        return seen;
    }

    /**
     * Calls until {@link #SETTLED} calls in a row are answered by backends of {@code expected} only; returns the
     * time from {@code sinceNanos} to the first call of that run.
     */
    private static long settle(LoopbackBackends backends, ManagedChannel channel, Set<Integer> expected,
                               long sinceNanos) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        int run = 0;
        long runStart = 0;
        while (System.nanoTime() < deadline) {
            long at = System.nanoTime();
            int answered = backends.call(channel, false);
            if (expected.contains(answered)) {
                if (run++ == 0) {
                    runStart = at;
                }
                if (run == SETTLED) {
                    return runStart - sinceNanos;
                }
            } else {
                run = 0;
            }
        }
        throw new AssertionError("calls did not settle on backends " + expected + " within " + PATIENCE);
    }

    @Test
    void routesOnlyToServedMembersAndFollowsAMemberDownAndUp(TestKafka kafka) {
        LoopbackBackends backends = keep(new LoopbackBackends(3));
        StateTopicWriter w = keep(new StateTopicWriter(kafka, "xds-route", 3));
        String group = "web";
        define(w, group, backends);
        states(w, group, false, HealthStatus.HEALTHY, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
        XdsWorker xds = keep(XdsWorker.start(config(kafka, w, 0)));
        Await.until(PATIENCE, xds::ready, () -> "xds not ready");
        ManagedChannel channel = channel(group, xds.xdsPort());
        firstAnswer(backends, channel);

        assertThat(answering(backends, channel, 60)).as(() -> "last error: " + backends.lastError())
                .containsExactlyInAnyOrder(0, 1);

        List<Long> latencies = new ArrayList<>();
        for (int cycle = 0; cycle < 10; cycle++) {
            states(w, group, false, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
            latencies.add(settle(backends, channel, Set.of(1), System.nanoTime()));
            states(w, group, false, HealthStatus.HEALTHY, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
            long since = System.nanoTime();
            // back: both answer again
            Await.until(PATIENCE, () -> answering(backends, channel, 10).contains(0), () -> "backend 0 never came back");
            latencies.add(System.nanoTime() - since);
        }
        latencies.sort(Long::compare);
        LOG.info("group event -> gRPC client routing: p50 {} ms, p99 {} ms, max {} ms over {} changes",
                latencies.get(latencies.size() / 2) / 1_000_000.0,
                latencies.get((int) Math.ceil(latencies.size() * 0.99) - 1) / 1_000_000.0,
                latencies.get(latencies.size() - 1) / 1_000_000.0, latencies.size());
        assertThat(answering(backends, channel, 60)).doesNotContain(2, -1);
    }

    @Test
    void aGroupThatFailsOpenIsRoutedToEveryMember(TestKafka kafka) {
        LoopbackBackends backends = keep(new LoopbackBackends(3));
        StateTopicWriter w = keep(new StateTopicWriter(kafka, "xds-open", 1));
        String group = "open";
        define(w, group, backends);
        states(w, group, false, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, HealthStatus.UNHEALTHY);
        XdsWorker xds = keep(XdsWorker.start(config(kafka, w, 0)));
        Await.until(PATIENCE, xds::ready, () -> "xds not ready");
        ManagedChannel channel = channel(group, xds.xdsPort());
        firstAnswer(backends, channel);
        assertThat(answering(backends, channel, 30)).containsExactly(0);

        // every member down: the aggregator's group event fails open, every member is routable
        states(w, group, true, HealthStatus.UNHEALTHY, HealthStatus.UNHEALTHY, HealthStatus.UNHEALTHY);

        Await.until(PATIENCE, () -> answering(backends, channel, 30).containsAll(Set.of(0, 1, 2)),
                () -> "not every member served while the group fails open");
        assertThat(answering(backends, channel, 30)).doesNotContain(-1);
    }

    @Test
    void aRestartOfTheXdsRoleKeepsClientsOnTheirLastAssignmentAndReconverges(TestKafka kafka) {
        LoopbackBackends backends = keep(new LoopbackBackends(3));
        StateTopicWriter w = keep(new StateTopicWriter(kafka, "xds-restart", 3));
        String group = "restart";
        define(w, group, backends);
        states(w, group, false, HealthStatus.HEALTHY, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
        XdsWorker first = XdsWorker.start(config(kafka, w, 0));
        int port = first.xdsPort();
        Await.until(PATIENCE, first::ready, () -> "xds not ready");
        ManagedChannel channel = channel(group, port);
        firstAnswer(backends, channel);
        assertThat(answering(backends, channel, 30)).containsExactlyInAnyOrder(0, 1);

        first.close();
        // healthmesh is down: calls keep going to the last assignment, none fails
        assertThat(answering(backends, channel, 60)).containsExactlyInAnyOrder(0, 1);
        states(w, group, false, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);

        XdsWorker second = keep(XdsWorker.start(config(kafka, w, port)));
        Set<Integer> answered = new HashSet<>();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        int onlyOne = 0;
        while (onlyOne < SETTLED && System.nanoTime() < deadline) {
            int b = backends.call(channel, false);
            answered.add(b);
            onlyOne = b == 1 ? onlyOne + 1 : 0;
        }
        assertThat(onlyOne).as("reconverged on the new state").isEqualTo(SETTLED);
        assertThat(answered).as("no call failed (an empty list would fail them) and none reached the unhealthy member")
                .doesNotContain(-1, 2);
        assertThat(second.ready()).isTrue();
    }
}
