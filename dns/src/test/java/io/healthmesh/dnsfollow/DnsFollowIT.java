package io.healthmesh.dnsfollow;

import io.healthmesh.testkit.LocalNamed;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.Update;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dns role end to end: state events on real topics (the testkit broker), a real BIND 9 taking its signed updates,
 * and a resolver asking the name. The name answers only the served members, follows a stop and a start (the time
 * from the events to the new answer is measured over several flips), keeps its last set when every member fails
 * without fail-open and answers every member in fail-open, repairs a record removed behind its back within the
 * reconcile period, sends nothing when an event is replayed, and is reconciled after named restarts from a zone
 * file without the role's records.
 */
@ExtendWith(KafkaExtension.class)
class DnsFollowIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String NAME = "api.example.test.";
    private static final List<String> MEMBERS = List.of("api-1", "api-2", "api-3");
    private static final Map<String, String> ADDRESS = Map.of("api-1", "10.0.0.1", "api-2", "10.0.0.2",
            "api-3", "10.0.0.3");
    private static final int FLIPS = 20;

    @TempDir
    Path dir;
    private LocalNamed named;
    private StateTopicWriter state;
    private final Map<String, HealthStatus> statuses = new LinkedHashMap<>();
    private long clock = 1_000_000;

    @BeforeEach
    void startNamed() throws Exception {
        named = LocalNamed.start(dir, Map.of("example.test", ""));
    }

    @AfterEach
    void stop() throws Exception {
        if (state != null) {
            state.close();
        }
        if (named != null) {
            named.close();
        }
    }

    private Map<String, String> settings(TestKafka kafka, long reconcileMs) throws Exception {
        return settings(kafka, reconcileMs, "");
    }

    private Map<String, String> settings(TestKafka kafka, long reconcileMs, String moreRecords) throws Exception {
        // the secret file as tsig-keygen prints it (named.conf's key clause)
        Path secret = Files.writeString(dir.resolve("update.key"), "key \"" + LocalNamed.UPDATE_KEY
                + "\" {\n\talgorithm hmac-sha256;\n\tsecret \"" + named.updateSecret() + "\";\n};\n");
        Path mapping = Files.writeString(dir.resolve("dns-mapping.yaml"), """
                keys:
                  - name: %s
                    algorithm: hmac-sha256
                    secretFile: %s
                records:
                  - group: api
                    zone: example.test
                    name: api
                    types: [A]
                    ttl: 5
                    server: %s
                    key: %s
                """.formatted(LocalNamed.UPDATE_KEY, secret.getFileName(), named.server(), LocalNamed.UPDATE_KEY)
                + moreRecords);
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", state.topics().prefix());
        s.put("mapping.file", mapping.toString());
        s.put("reconcile.interval.ms", Long.toString(reconcileMs));
        s.put("update.timeout.ms", "2000");
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        return s;
    }

    /** Writes each member's state, then the group event the aggregator would write for them. */
    private void publish(Map<String, HealthStatus> next, boolean failOpen) {
        clock += 1_000;
        next.forEach((id, status) -> {
            if (statuses.get(id) != status) {
                state.state(id, "api", status, clock);
            }
        });
        statuses.putAll(next);
        List<String> routable = failOpen ? MEMBERS : statuses.entrySet().stream()
                .filter(e -> e.getValue() == HealthStatus.HEALTHY).map(Map.Entry::getKey).toList();
        state.group("api", failOpen, statuses, routable, clock);
    }

    private static Set<String> addresses(String... ids) {
        Set<String> set = new java.util.TreeSet<>();
        for (String id : ids) {
            set.add(ADDRESS.get(id));
        }
        return set;
    }

    private static Map<String, HealthStatus> all(HealthStatus status) {
        Map<String, HealthStatus> m = new LinkedHashMap<>();
        MEMBERS.forEach(id -> m.put(id, status));
        return m;
    }

    @Test
    void theNameFollowsTheServedMembers(TestKafka kafka) throws Exception {
        state = new StateTopicWriter(kafka, "dns", 3);
        MEMBERS.forEach(id -> state.define(id, "api", ADDRESS.get(id), 443, 10, Map.of()));
        publish(all(HealthStatus.HEALTHY), false);
        NameQuery query = new NameQuery(named);
        assertThat(query.a(NAME)).isEmpty();

        try (DnsFollowWorker worker = DnsFollowWorker.start(DnsFollowConfig.from(settings(kafka, 2_000)))) {
            Await.until(PATIENCE, worker::ready, () -> "not ready; named log: " + named.log());
            assertThat(query.a(NAME)).isEqualTo(addresses("api-1", "api-2", "api-3"));

            // stops and starts: the time from the first event written to the new answer
            List<Long> micros = new ArrayList<>();
            List<Long> afterAck = new ArrayList<>();
            for (int i = 0; i < FLIPS; i++) {
                boolean down = i % 2 == 0;
                Map<String, HealthStatus> next = all(HealthStatus.HEALTHY);
                next.put("api-2", down ? HealthStatus.UNHEALTHY : HealthStatus.HEALTHY);
                Set<String> expected = down ? addresses("api-1", "api-3") : addresses("api-1", "api-2", "api-3");
                long start = System.nanoTime();
                publish(next, false);
                long acknowledged = System.nanoTime();
                long answered = awaitAnswer(query, expected, start);
                micros.add(answered);
                afterAck.add(answered - (acknowledged - start) / 1000);
            }
            System.out.println("dns: first event written -> name answers the new set, " + FLIPS + " flips: "
                    + percentiles(micros));
            System.out.println("dns: group event acknowledged -> name answers the new set: " + percentiles(afterAck));

            // a replayed event (the same group event again) sends no update
            double applied = counter(worker.registry(), "healthmesh_dns_applied");
            state.group("api", false, statuses, MEMBERS, clock);
            Await.holdsFor(Duration.ofSeconds(3), () -> counter(worker.registry(), "healthmesh_dns_applied") == applied,
                    () -> "an update was sent for a replayed event");

            // every member fails, no fail-open: the last set stays
            publish(all(HealthStatus.UNHEALTHY), false);
            Await.until(PATIENCE, () -> counter(worker.registry(), "healthmesh_dns_kept_last") >= 1,
                    () -> "no kept-last episode counted");
            Await.holdsFor(Duration.ofSeconds(3), () -> query.a(NAME).equals(addresses("api-1", "api-2", "api-3")),
                    () -> "the name lost its last set: " + query.a(NAME));
            // in fail-open the aggregator routes to every member: so does the name
            Map<String, HealthStatus> twoDown = all(HealthStatus.UNHEALTHY);
            twoDown.put("api-3", HealthStatus.HEALTHY);
            publish(twoDown, false);
            awaitAnswer(query, addresses("api-3"), System.nanoTime());
            publish(all(HealthStatus.UNHEALTHY), true);
            awaitAnswer(query, addresses("api-1", "api-2", "api-3"), System.nanoTime());
            publish(all(HealthStatus.HEALTHY), false);
            awaitAnswer(query, addresses("api-1", "api-2", "api-3"), System.nanoTime());
            awaitQuiet(worker);

            // a record removed behind the role's back is back within the reconcile period
            manualDelete("10.0.0.1");
            assertThat(query.a(NAME)).isEqualTo(addresses("api-2", "api-3"));
            long repairStart = System.nanoTime();
            long repaired = awaitAnswer(query, addresses("api-1", "api-2", "api-3"), repairStart);
            System.out.printf("dns: a record deleted by hand was back after %.0f ms (reconcile.interval.ms 2000)%n",
                    repaired / 1000.0);
            assertThat(repaired).isLessThan(Duration.ofSeconds(2).plusMillis(1_500).toNanos() / 1000);

            // named restarts from a zone file without the role's records while a member went down
            named.stop();
            Map<String, HealthStatus> oneDown = all(HealthStatus.HEALTHY);
            oneDown.put("api-1", HealthStatus.UNHEALTHY);
            publish(oneDown, false);
            Await.until(PATIENCE, () -> counter(worker.registry(), "healthmesh_dns_failed", "unreachable") >= 1,
                    () -> "no unreachable failure counted");
            named.resetZone("example.test", "");
            named.launch();
            long restartStart = System.nanoTime();
            // named serves its file until the role has reconciled it: nothing, for a moment
            long restored = awaitAnswer(query, addresses("api-2", "api-3"), restartStart, true);
            System.out.printf("dns: after named restarted empty, the name answered again after %.0f ms%n",
                    restored / 1000.0);
            assertThat(worker.ready()).isTrue();
        }
    }

    private static String percentiles(List<Long> micros) {
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        int n = sorted.size();
        return String.format("p50 %.1f ms, p99 %.1f ms, max %.1f ms", sorted.get(n / 2) / 1000.0,
                sorted.get((int) Math.ceil(n * 0.99) - 1) / 1000.0, sorted.get(n - 1) / 1000.0);
    }

    @Test
    void aZoneTheServerDoesNotServeIsCountedAndTheOtherNamesGoOn(TestKafka kafka) throws Exception {
        state = new StateTopicWriter(kafka, "dns-notauth", 1);
        MEMBERS.forEach(id -> state.define(id, "api", ADDRESS.get(id), 443, 10, Map.of()));
        publish(all(HealthStatus.HEALTHY), false);
        NameQuery query = new NameQuery(named);
        String wrongZone = """
                  - group: api
                    zone: not-served.test
                    name: api
                    server: %s
                    key: %s
                """.formatted(named.server(), LocalNamed.UPDATE_KEY);

        try (DnsFollowWorker worker = DnsFollowWorker.start(DnsFollowConfig.from(settings(kafka, 2_000, wrongZone)))) {
            awaitAnswer(query, addresses("api-1", "api-2", "api-3"), System.nanoTime(), true);
            Await.until(PATIENCE, () -> counter(worker.registry(), "healthmesh_dns_failed", "not_authoritative") >= 2,
                    () -> "the zone not served was not counted (retried) as not_authoritative");
            assertThat(worker.ready()).as("ready only once every name was in sync").isFalse();
        }
    }

    /**
     * Waits for the name to answer {@code expected}, failing at once if it answers nothing; returns the microseconds
     * since {@code startNanos}.
     */
    private static long awaitAnswer(NameQuery query, Set<String> expected, long startNanos) throws InterruptedException {
        return awaitAnswer(query, expected, startNanos, false);
    }

    /** Waits until no update was applied for a second (the role has handled every event written). */
    private static void awaitQuiet(DnsFollowWorker worker) {
        double[] last = {counter(worker.registry(), "healthmesh_dns_applied")};
        long[] since = {System.nanoTime()};
        Await.until(PATIENCE, () -> {
            double now = counter(worker.registry(), "healthmesh_dns_applied");
            if (now != last[0]) {
                last[0] = now;
                since[0] = System.nanoTime();
            }
            return System.nanoTime() - since[0] > Duration.ofSeconds(1).toNanos();
        }, () -> "the role kept applying updates");
    }

    private static long awaitAnswer(NameQuery query, Set<String> expected, long startNanos, boolean emptyAllowed)
            throws InterruptedException {
        long deadline = startNanos + PATIENCE.toNanos();
        Set<String> seen = Set.of();
        while (System.nanoTime() - deadline < 0) {
            try {
                seen = query.a(NAME);
            } catch (java.io.UncheckedIOException e) {
                // a named that was just restarted may not listen yet: no answer, like an empty one
                if (!emptyAllowed || !(e.getCause() instanceof java.net.PortUnreachableException)) {
                    throw e;
                }
                seen = Set.of();
                Thread.sleep(2);
                continue;
            }
            if (seen.equals(expected)) {
                return (System.nanoTime() - startNanos) / 1000;
            }
            if (seen.isEmpty() && !emptyAllowed) {
                throw new AssertionError("the name answered nothing (expected " + expected + ")");
            }
            Thread.sleep(2);
        }
        throw new AssertionError("the name answers " + seen + ", not " + expected + " within " + PATIENCE);
    }

    private void manualDelete(String address) throws Exception {
        SimpleResolver resolver = new SimpleResolver(new InetSocketAddress("127.0.0.1", named.port()));
        resolver.setTCP(true);
        resolver.setTSIGKey(new TSIG(TSIG.HMAC_SHA256, Name.fromString(LocalNamed.UPDATE_KEY),
                java.util.Base64.getDecoder().decode(named.updateSecret())));
        Update update = new Update(Name.fromString("example.test."));
        update.delete(new ARecord(Name.fromString(NAME), DClass.IN, 0, InetAddress.getByName(address)));
        Message answer = resolver.send(update);
        assertThat(Rcode.string(answer.getRcode())).isEqualTo("NOERROR");
    }

    static double counter(PrometheusRegistry registry, String name, String... labelValue) {
        for (MetricSnapshot m : registry.scrape()) {
            if (m.getMetadata().getName().equals(name) && m instanceof CounterSnapshot c) {
                return c.getDataPoints().stream()
                        .filter(d -> labelValue.length == 0 || d.getLabels().toString().contains("\"" + labelValue[0] + "\""))
                        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
            }
        }
        throw new AssertionError("no counter " + name);
    }
}
