package io.healthmesh.notifier.deliver;

import io.healthmesh.core.retry.Backoff;

import io.healthmesh.testkit.Await;
import io.healthmesh.notifier.NotifierMetrics;
import io.healthmesh.notifier.domain.AlertKey;
import io.healthmesh.notifier.domain.Notification;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.notifier.domain.Position;
import io.healthmesh.notifier.domain.RouteFilter;
import io.healthmesh.notifier.domain.RoutePolicy;
import io.healthmesh.notifier.route.RouteConfig;
import io.healthmesh.notifier.route.RouteType;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-route queue with a scripted transport (answers given in advance): order, retries, refusals, drops. */
class RouteDeliveryTest {

    private final RouteConfig route = new RouteConfig(RouteType.WEBHOOK, URI.create("http://receiver.invalid/"),
            Map.of("Authorization", "Bearer x"), Duration.ofSeconds(1),
            new RoutePolicy("r", RouteFilter.DEFAULT, Duration.ZERO, Duration.ZERO, true));
    private final NotifierMetrics metrics = new NotifierMetrics(new PrometheusRegistry(), List.of("r"), () -> null);
    private final List<Notification> done = new CopyOnWriteArrayList<>();
    private final List<String> sentKeys = new CopyOnWriteArrayList<>();

    /** Answers in order: a status code, or -1 for a refused connection; 200 once the script is used up. */
    private Transport scripted(Integer... answers) {
        Deque<Integer> script = new ArrayDeque<>(List.of(answers));
        return (uri, headers, json, timeout) -> {
            Integer answer;
            synchronized (script) {
                answer = script.isEmpty() ? 200 : script.pollFirst();
            }
            if (answer < 0) {
                throw new ConnectException("Connection refused");
            }
            if (answer == 200) {
                sentKeys.add(headers.get("Idempotency-Key"));
            }
            assertThat(headers).containsEntry("Authorization", "Bearer x");
            return answer;
        };
    }

    private static Notification note(String id, int partition) {
        Observation o = new Observation(AlertKey.target(id), new Position("hs", partition, 1), "g", Map.of(),
                "UNHEALTHY", 0, null, null);
        return new Notification("r", Notification.Type.FIRING, o.key(), 0, -1, 0, o, o.position(), 0);
    }

    private void awaitDone(int n) {
        Await.until(Duration.ofSeconds(10), () -> done.size() >= n, () -> n + " done; done: " + done);
        assertThat(done).hasSize(n);
    }

    @Test
    void retriesUntilAcceptedAndKeepsTheOrder() throws Exception {
        try (RouteDelivery d = new RouteDelivery(route, scripted(-1, 503, 429, 200),
                new Backoff(Duration.ofMillis(5), Duration.ofMillis(20)), Clock.systemUTC(), metrics, done::add)) {
            Notification a = note("a", 0);
            Notification b = note("b", 0);
            d.offer(a);
            d.offer(b);
            awaitDone(2);
            assertThat(done).containsExactly(a, b);
            assertThat(sentKeys).containsExactly(a.idempotencyKey(), b.idempotencyKey());
            assertThat(d.pending()).isZero();
        }
    }

    @Test
    void aRefusedNotificationIsDroppedAndTheNextOneGoesOn() throws Exception {
        try (RouteDelivery d = new RouteDelivery(route, scripted(400, 200),
                new Backoff(Duration.ofMillis(5), Duration.ofMillis(20)), Clock.systemUTC(), metrics, done::add)) {
            Notification bad = note("bad", 0);
            Notification good = note("good", 0);
            d.offer(bad);
            d.offer(good);
            awaitDone(2);
            assertThat(sentKeys).containsExactly(good.idempotencyKey());
        }
    }

    @Test
    void droppingAPartitionStopsItsRetriesAndRemovesItsQueue() throws Exception {
        Transport down = (uri, headers, json, timeout) -> {
            throw new IOException("down");
        };
        try (RouteDelivery d = new RouteDelivery(route, down,
                new Backoff(Duration.ofMillis(5), Duration.ofMillis(20)), Clock.systemUTC(), metrics, done::add)) {
            d.offer(note("a", 0));
            d.offer(note("b", 1));
            d.offer(note("c", 0));
            Await.until(Duration.ofSeconds(10), d::retrying, () -> "the delivery retrying");
            d.drop(n -> n.state().position().partition() == 0);
            Await.until(Duration.ofSeconds(10), () -> d.pending() == 1,
                    () -> "only partition 1's notification left; pending: " + d.pending());
            assertThat(done).isEmpty();
        }
    }
}
