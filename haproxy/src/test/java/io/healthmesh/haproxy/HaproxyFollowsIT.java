package io.healthmesh.haproxy;

import io.healthmesh.haproxy.plan.ActualServer;
import io.healthmesh.haproxy.plan.ServerState;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The driver against Debian's real HAProxy, fed through real state topics: traffic through HAProxy stops reaching
 * a member within the event latency once the member is no longer routable (measured over several flips), comes
 * back when it is routable again, a group that grows gets a new server, fail-open puts every member back, a mapped
 * backend HAProxy lacks is reported while the others go on, a HAProxy killed and started again is reconciled within
 * seconds, taking servers out waits for the change budget, two drivers on one HAProxy agree and then send nothing,
 * and one driver keeps two HAProxy instances, one of them over a TCP stats socket.
 */
@ExtendWith(KafkaExtension.class)
class HaproxyFollowsIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String BACKEND = "be_api";
    private static final int FLIPS = 12;

    @TempDir
    Path dir;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private LoopbackBackends backends;
    private StateTopicWriter state;
    private LocalHaproxy haproxy;
    private HaproxyWorker driver;
    private HaproxyConfig config;
    private final Map<String, HealthStatus> statuses = new LinkedHashMap<>();

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(opened);
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T open(T c) {
        opened.add(c);
        return c;
    }

    /** HAProxy, three healthy members a, b, c behind it, and a driver that has reconciled them. */
    private void start(TestKafka kafka, String... extraMappedBackends) throws Exception {
        start(kafka, Map.of(), extraMappedBackends);
    }

    private void start(TestKafka kafka, Map<String, String> settings, String... extraMappedBackends)
            throws Exception {
        start(kafka, settings, List.of(), extraMappedBackends);
    }

    /** The same, with more instances in the mapping besides the HAProxy started here. */
    private void start(TestKafka kafka, Map<String, String> settings, List<String> moreInstances,
                       String... extraMappedBackends) throws Exception {
        LocalHaproxy.binary();
        backends = open(new LoopbackBackends());
        state = open(new StateTopicWriter(kafka, "haproxy", 3));
        haproxy = open(LocalHaproxy.start(dir, BACKEND, BACKEND));
        for (String id : List.of("a", "b", "c")) {
            member(id, HealthStatus.HEALTHY);
        }
        group(false);
        StringBuilder instances = new StringBuilder("'" + haproxy.address() + "'");
        moreInstances.forEach(i -> instances.append(", '").append(i).append("'"));
        StringBuilder mapping = new StringBuilder("instances: [" + instances + "]\nbackends:\n"
                + "  - {group: api, backend: " + BACKEND + ", serverName: 'hm-{id}'}\n");
        for (String b : extraMappedBackends) {
            mapping.append("  - {group: api, backend: ").append(b).append("}\n");
        }
        Path mappingFile = Files.writeString(dir.resolve("mapping.yaml"), mapping);
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", state.topics().prefix());
        s.put("mapping.file", mappingFile.toString());
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        s.put("reconcile.interval.ms", "1000");
        s.putAll(settings);
        config = HaproxyConfig.from(s);
        driver = open(HaproxyWorker.start(config));
        Await.until(PATIENCE, driver::ready, () -> "driver not ready; " + haproxy.servers(BACKEND));
        awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY));
    }

    /** Defines (first time) a loopback member and writes its state event. */
    private void member(String id, HealthStatus status) throws IOException {
        if (!statuses.containsKey(id)) {
            state.define(id, "api", "127.0.0.1", backends.start(id), 10, Map.of());
        }
        statuses.put(id, status);
        state.state(id, "api", status, System.currentTimeMillis());
    }

    /** The group event the aggregator would write: routable = HEALTHY and DISABLED, or everyone in fail-open. */
    private void group(boolean failOpen) {
        List<String> routable = statuses.entrySet().stream()
                .filter(e -> failOpen || e.getValue() == HealthStatus.HEALTHY || e.getValue() == HealthStatus.DISABLED)
                .map(Map.Entry::getKey).toList();
        state.group("api", failOpen, Map.copyOf(statuses), routable, System.currentTimeMillis());
    }

    private Map<String, ServerState> servers() {
        return haproxy.servers(BACKEND).stream().collect(Collectors.toMap(ActualServer::name, ActualServer::state));
    }

    private void awaitServers(Map<String, ServerState> expected) {
        Await.until(PATIENCE, () -> servers().equals(expected), () -> "HAProxy holds " + servers() + ", expected "
                + expected + "\n" + haproxy.log());
    }

    @Test
    void trafficStopsReachingAMemberWithinTheEventLatencyAndComesBack(TestKafka kafka) throws Exception {
        start(kafka);
        List<Long> latenciesMs = new ArrayList<>();
        try (TrafficLoop traffic = new TrafficLoop(haproxy.frontendPort(), 2_000_000, Duration.ofMinutes(5))) {
            Await.until(PATIENCE, () -> List.of("a", "b", "c").stream().allMatch(id -> traffic.answeredBy(id) > 0),
                    traffic::toString);
            for (int flip = 0; flip < FLIPS; flip++) {
                String victim = List.of("a", "b", "c").get(flip % 3);
                long before = System.nanoTime();
                member(victim, HealthStatus.UNHEALTHY);
                group(false);
                Await.until(PATIENCE, () -> servers().get("hm-" + victim) == ServerState.MAINT, () -> "" + servers());
                long hitsAtMaint = backends.hits(victim);
                long answered = traffic.answered();
                Await.until(PATIENCE, () -> traffic.answered() >= answered + 200, traffic::toString);
                // one request may have been on its way to the victim when HAProxy took it out
                assertThat(backends.hits(victim)).as("requests reaching %s after its server was in maintenance",
                        victim).isLessThanOrEqualTo(hitsAtMaint + 1);
                latenciesMs.add(Math.max(0, backends.lastHitNanos(victim) - before) / 1_000_000);

                member(victim, HealthStatus.HEALTHY);
                group(false);
                long hitsBack = backends.hits(victim);
                Await.until(PATIENCE, () -> backends.hits(victim) > hitsBack, () -> victim + " gets no traffic back; "
                        + servers());
            }
            assertThat(traffic.running()).as("the traffic loop ran through every flip").isTrue();
        }
        Collections.sort(latenciesMs);
        long p50 = latenciesMs.get(latenciesMs.size() / 2);
        long p99 = latenciesMs.get((int) Math.ceil(latenciesMs.size() * 0.99) - 1);
        System.out.printf("haproxy: state event -> last request reaching the member, over %d flips: p50 %d ms, "
                + "p99 %d ms, all %s%n", FLIPS, p50, p99, latenciesMs);
        assertThat(p99).as("event to no more traffic, ms").isLessThan(10_000);
        String metrics = scrape();
        assertThat(metrics).contains("healthmesh_haproxy_applied_total{instance=\"" + haproxy.address() + "\"}")
                .contains("healthmesh_haproxy_follow_lag_records");
    }

    @Test
    void aGrowingGroupGetsAServerFailOpenServesEveryoneAndAnUnknownBackendStopsNothing(TestKafka kafka)
            throws Exception {
        start(kafka, "be_not_in_haproxy_cfg");
        assertThat(scrape()).contains("healthmesh_haproxy_unknown_backends{instance=\"" + haproxy.address()
                + "\"} 1.0");

        try (TrafficLoop traffic = new TrafficLoop(haproxy.frontendPort(), 2_000_000, Duration.ofMinutes(3))) {
            member("d", HealthStatus.HEALTHY);
            group(false);
            awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY,
                    "hm-d", ServerState.READY));
            Await.until(PATIENCE, () -> traffic.answeredBy("d") > 0, traffic::toString);

            member("a", HealthStatus.UNHEALTHY);
            group(false);
            awaitServers(Map.of("hm-a", ServerState.MAINT, "hm-b", ServerState.READY, "hm-c", ServerState.READY,
                    "hm-d", ServerState.READY));

            // every member down: the aggregator's event says fail-open, and every member is served again
            for (String id : List.of("b", "c", "d")) {
                member(id, HealthStatus.UNHEALTHY);
            }
            group(true);
            awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY,
                    "hm-d", ServerState.READY));
            long aHits = traffic.answeredBy("a");
            Await.until(PATIENCE, () -> traffic.answeredBy("a") > aHits, traffic::toString);
        }

        // a member that leaves the group is taken out and deleted
        statuses.remove("d");
        state.delete("d");
        group(true);
        awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY));
    }

    @Test
    void aHaproxyKilledAndStartedAgainIsReconciledWithinSeconds(TestKafka kafka) throws Exception {
        start(kafka);
        member("b", HealthStatus.UNHEALTHY);
        group(false);
        Map<String, ServerState> expected = Map.of("hm-a", ServerState.READY, "hm-b", ServerState.MAINT,
                "hm-c", ServerState.READY);
        awaitServers(expected);

        haproxy.restart();
        long restarted = System.nanoTime();
        Await.until(Duration.ofSeconds(15), () -> servers().equals(expected), () -> "not reconciled: " + servers());
        long reconciledMs = (System.nanoTime() - restarted) / 1_000_000;
        System.out.printf("haproxy: restart -> backend reconciled in %d ms (reconcile.interval.ms 1000)%n",
                reconciledMs);
        try (TrafficLoop traffic = new TrafficLoop(haproxy.frontendPort(), 1_000, Duration.ofSeconds(60))) {
            Await.until(PATIENCE, () -> traffic.answered() >= 300, traffic::toString);
            traffic.close();
            assertThat(traffic.answeredBy("a") + traffic.answeredBy("c")).as("answers: %s", traffic)
                    .isEqualTo(traffic.answered());
        }
    }

    @Test
    void takingServersOutWaitsForTheChangeBudgetAndPuttingThemBackDoesNot(TestKafka kafka) throws Exception {
        // one server out at once, then one every 2 s
        start(kafka, Map.of("changes.burst", "1", "changes.per.second", "0.5"));
        member("d", HealthStatus.HEALTHY);
        group(false);
        awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY,
                "hm-d", ServerState.READY));
        Await.until(PATIENCE, () -> scrape().contains("healthmesh_haproxy_queued_changes{instance=\""
                + haproxy.address() + "\"} 0.0"), () -> "budget still busy");

        long before = System.nanoTime();
        member("a", HealthStatus.UNHEALTHY);
        member("b", HealthStatus.UNHEALTHY);
        member("c", HealthStatus.UNHEALTHY);
        group(false);
        Await.until(PATIENCE, () -> maint() >= 1, () -> "" + servers());
        long first = System.nanoTime();
        assertThat(maint()).as("one taken out at once; " + servers()).isEqualTo(1);
        assertThat(scrape()).contains("healthmesh_haproxy_queued_changes{instance=\"" + haproxy.address()
                + "\"} 2.0");
        awaitServers(Map.of("hm-a", ServerState.MAINT, "hm-b", ServerState.MAINT, "hm-c", ServerState.MAINT,
                "hm-d", ServerState.READY));
        long spreadMs = (System.nanoTime() - first) / 1_000_000;
        System.out.printf("haproxy: 3 servers out with burst 1 and 0.5/s: first after %d ms, the last %d ms later%n",
                (first - before) / 1_000_000, spreadMs);
        assertThat(spreadMs).as("two more at 0.5/s take about 4 s").isGreaterThanOrEqualTo(3_000);

        // putting them back is not limited: all three in one pass
        member("a", HealthStatus.HEALTHY);
        member("b", HealthStatus.HEALTHY);
        member("c", HealthStatus.HEALTHY);
        group(false);
        awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.READY, "hm-c", ServerState.READY,
                "hm-d", ServerState.READY));
    }

    @Test
    void twoDriversOnOneHaproxyAgreeAndThenSendNothing(TestKafka kafka) throws Exception {
        start(kafka);
        HaproxyWorker second = open(HaproxyWorker.start(config));
        Await.until(PATIENCE, second::ready, () -> "second driver not ready");
        double firstBefore = applied(driver);
        double otherBefore = applied(second);
        assertThat(otherBefore).as("the second driver found nothing to change").isZero();
        member("b", HealthStatus.UNHEALTHY);
        member("e", HealthStatus.HEALTHY);
        group(false);
        awaitServers(Map.of("hm-a", ServerState.READY, "hm-b", ServerState.MAINT, "hm-c", ServerState.READY,
                "hm-e", ServerState.READY));

        // both keep passing every second; with nothing left to change neither sends a command
        double first = applied(driver);
        double other = applied(second);
        Await.holdsFor(Duration.ofSeconds(4), () -> applied(driver) == first && applied(second) == other,
                () -> "a driver kept sending: " + applied(driver) + " / " + applied(second));
        // three commands (b to maint, add e, e ready): made once between them, or by both when both raced
        assertThat(first - firstBefore + other - otherBefore).as("commands applied by the two drivers")
                .isBetween(3.0, 6.0);
    }

    private static double applied(HaproxyWorker worker) {
        return worker.registry().scrape().stream()
                .filter(m -> m.getMetadata().getPrometheusName().equals("healthmesh_haproxy_applied"))
                .flatMap(m -> ((io.prometheus.metrics.model.snapshots.CounterSnapshot) m).getDataPoints().stream())
                .mapToDouble(io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }

    @Test
    void oneDriverKeepsTwoHaproxysOneOfThemOverATcpStatsSocket(TestKafka kafka) throws Exception {
        LocalHaproxy.binary();
        Path secondDir = Files.createDirectories(dir.resolve("second"));
        LocalHaproxy other = open(LocalHaproxy.start(secondDir, true, BACKEND, BACKEND));
        start(kafka, Map.of(), List.of(other.tcpAddress().toString()));
        Map<String, ServerState> expected = Map.of("hm-a", ServerState.READY, "hm-b", ServerState.MAINT,
                "hm-c", ServerState.READY);
        member("b", HealthStatus.UNHEALTHY);
        group(false);
        awaitServers(expected);
        Await.until(PATIENCE, () -> states(other).equals(expected), () -> "second HAProxy holds " + states(other));
        assertThat(scrape()).contains("healthmesh_haproxy_applied_total{instance=\"" + other.tcpAddress() + "\"}");
    }

    private static Map<String, ServerState> states(LocalHaproxy h) {
        return h.servers(BACKEND).stream().collect(Collectors.toMap(ActualServer::name, ActualServer::state));
    }

    private long maint() {
        return servers().values().stream().filter(ServerState.MAINT::equals).count();
    }

    private String scrape() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + driver.httpPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
