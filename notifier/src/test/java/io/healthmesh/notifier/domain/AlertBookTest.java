package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Position.PartitionRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AlertBookTest {

    private static final String TOPIC = "healthmesh.health-state";
    private static final PartitionRef P0 = new PartitionRef(TOPIC, 0);

    private final CommitLedger ledger = new CommitLedger();
    private long offset;
    /** The fake clock, epoch ms. */
    private long now = 1_000_000;

    private AlertBook book(RoutePolicy... routes) {
        ledger.assign(P0, 0, true);
        return new AlertBook(List.of(routes), ledger);
    }

    private static RoutePolicy route(String name, Duration min, Duration repeat) {
        return new RoutePolicy(name, RouteFilter.DEFAULT, min, repeat, true);
    }

    private Observation target(String id, String status, long sinceMs) {
        return new Observation(AlertKey.target(id), new Position(TOPIC, 0, offset++), "api", Map.of("team", "a"),
                status, sinceMs, "CONNECT_REFUSED", null);
    }

    @Test
    void aFlipFiresOncePerRouteAndRecoveryResolvesIt() {
        AlertBook book = book(route("a", Duration.ZERO, Duration.ZERO), route("b", Duration.ZERO, Duration.ZERO));
        assertThat(book.apply(target("t1", "UNHEALTHY", now), now)).isEmpty();
        List<Notification> firing = book.tick(now);
        assertThat(firing).extracting(Notification::route, Notification::type)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", Type.FIRING),
                        org.assertj.core.groups.Tuple.tuple("b", Type.FIRING));
        assertThat(book.tick(now + 60_000)).isEmpty();
        assertThat(book.apply(target("t1", "UNHEALTHY", now), now + 1)).as("same episode, another event").isEmpty();
        List<Notification> resolved = book.apply(target("t1", "HEALTHY", now + 90_000), now + 90_000);
        assertThat(resolved).extracting(Notification::type).containsExactly(Type.RESOLVED, Type.RESOLVED);
        assertThat(resolved.get(0).startMs()).isEqualTo(now);
        assertThat(resolved.get(0).endMs()).isEqualTo(now + 90_000);
        assertThat(book.open("a")).isZero();
    }

    @Test
    void minimumDurationIsWaitedOnTheClock() {
        AlertBook book = book(route("a", Duration.ofSeconds(30), Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now);
        assertThat(book.tick(now + 29_999)).isEmpty();
        List<Notification> fired = book.tick(now + 30_000);
        assertThat(fired).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.FIRING);
            assertThat(n.dueMs()).isEqualTo(now + 30_000);
            assertThat(n.startMs()).isEqualTo(now);
        });
    }

    @Test
    void anEpisodeShorterThanTheMinimumSendsNothingAndReleasesItsRecord() {
        AlertBook book = book(route("a", Duration.ofSeconds(30), Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now);
        assertThat(ledger.holds(P0)).isEqualTo(1);
        assertThat(book.apply(target("t1", "HEALTHY", now + 10_000), now + 10_000)).isEmpty();
        assertThat(book.tick(now + 60_000)).isEmpty();
        assertThat(ledger.holds(P0)).isZero();
        assertThat(ledger.toCommit(P0)).hasValue(2);
    }

    @Test
    void anEpisodeLongEnoughByEventTimeFiresAndResolvesWhenItsEndIsReadBeforeTheClockFiredIt() {
        // a notifier catching up: both records are read in one batch, long after they happened
        AlertBook book = book(route("a", Duration.ofSeconds(30), Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now + 600_000);
        List<Notification> out = book.apply(target("t1", "HEALTHY", now + 45_000), now + 600_000);
        assertThat(out).extracting(Notification::type).containsExactly(Type.FIRING, Type.RESOLVED);
        assertThat(out.get(0).held()).isEqualTo(new Position(TOPIC, 0, 0));
        assertThat(out.get(1).held()).isEqualTo(new Position(TOPIC, 0, 1));
    }

    @Test
    void remindersComeEveryRepeatWhileDownAndMissedOnesAreNotBunched() {
        AlertBook book = book(route("a", Duration.ofSeconds(10), Duration.ofMinutes(1)));
        book.apply(target("t1", "UNHEALTHY", now), now);
        assertThat(book.tick(now + 10_000)).extracting(Notification::type).containsExactly(Type.FIRING);
        assertThat(book.tick(now + 69_999)).isEmpty();
        assertThat(book.tick(now + 70_000)).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.REMINDER);
            assertThat(n.reminder()).isEqualTo(1);
            assertThat(n.held()).isNull();
        });
        assertThat(book.tick(now + 70_500)).isEmpty();
        // the clock jumps four periods: one reminder, numbered by the slot reached
        assertThat(book.tick(now + 250_000)).singleElement()
                .satisfies(n -> assertThat(n.reminder()).isEqualTo(4));
        book.apply(target("t1", "HEALTHY", now + 260_000), now + 260_000);
        assertThat(book.tick(now + 400_000)).isEmpty();
    }

    @Test
    void filtersDecideWhichRoutesAlert() {
        RoutePolicy payments = new RoutePolicy("payments",
                new RouteFilter(Set.of(), Map.of("team", "payments"), Set.of("UNHEALTHY"), false),
                Duration.ZERO, Duration.ZERO, true);
        RoutePolicy apiAny = new RoutePolicy("api",
                new RouteFilter(Set.of("api"), Map.of(), Set.of("UNHEALTHY", "DETECTING"), false),
                Duration.ZERO, Duration.ZERO, false);
        AlertBook book = book(payments, apiAny);
        book.apply(target("t1", "DETECTING", now), now);
        assertThat(book.tick(now)).extracting(Notification::route).containsExactly("api");
        book.apply(target("t1", "UNHEALTHY", now + 5), now + 5);
        assertThat(book.tick(now + 5)).as("DETECTING -> UNHEALTHY is one episode on api; team a is not payments")
                .isEmpty();
        assertThat(book.apply(target("t1", "HEALTHY", now + 9), now + 9)).as("api does not send resolved").isEmpty();
    }

    @Test
    void aFailOpenGroupAlertsOnRoutesThatWantIt() {
        RoutePolicy wants = new RoutePolicy("wants", RouteFilter.DEFAULT, Duration.ZERO, Duration.ZERO, true);
        RoutePolicy ignores = new RoutePolicy("ignores",
                new RouteFilter(Set.of(), Map.of(), Set.of("UNHEALTHY"), false), Duration.ZERO, Duration.ZERO, true);
        AlertBook book = book(wants, ignores);
        Observation failOpen = new Observation(AlertKey.group("api"), new Position(TOPIC, 0, offset++), "api",
                Map.of(), Observation.FAIL_OPEN, now, "0/2 healthy", null);
        book.apply(failOpen, now);
        assertThat(book.tick(now)).extracting(Notification::route, n -> n.key().kind())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("wants", AlertKey.Kind.GROUP));
        Observation routing = new Observation(AlertKey.group("api"), new Position(TOPIC, 0, offset++), "api",
                Map.of(), Observation.ROUTING, now + 1000, "1/2 healthy", null);
        assertThat(book.apply(routing, now + 1000)).extracting(Notification::type).containsExactly(Type.RESOLVED);
    }

    @Test
    void aDeletedTargetResolvesWithItsLastGroupAndLabels() {
        AlertBook book = book(route("a", Duration.ZERO, Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now);
        book.tick(now);
        Observation tombstone = new Observation(AlertKey.target("t1"), new Position(TOPIC, 0, offset++), "", Map.of(),
                null, now + 5_000, null, null);
        assertThat(book.apply(tombstone, now + 5_000)).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.RESOLVED);
            assertThat(n.state().group()).isEqualTo("api");
            assertThat(n.state().labels()).containsEntry("team", "a");
        });
    }

    @Test
    void idempotencyKeysAreStableAndDistinct() {
        AlertBook first = book(route("a", Duration.ZERO, Duration.ofSeconds(10)));
        first.apply(target("t1", "UNHEALTHY", now), now);
        List<String> keys = new ArrayList<>();
        first.tick(now).forEach(n -> keys.add(n.idempotencyKey()));
        first.tick(now + 10_000).forEach(n -> keys.add(n.idempotencyKey()));
        first.apply(target("t1", "HEALTHY", now + 15_000), now + 15_000).forEach(n -> keys.add(n.idempotencyKey()));
        assertThat(keys).hasSize(3).doesNotHaveDuplicates().allMatch(k -> k.matches("[0-9a-f]{32}"));

        // another instance (or a restart) seeing the same events computes the same keys
        offset = 0;
        CommitLedger other = new CommitLedger();
        other.assign(P0, 0, true);
        AlertBook second = new AlertBook(List.of(route("a", Duration.ZERO, Duration.ofSeconds(10))), other);
        second.apply(target("t1", "UNHEALTHY", now), now);
        assertThat(second.tick(now).get(0).idempotencyKey()).isEqualTo(keys.get(0));
    }

    @Test
    void theFiringHoldsItsRecordUntilDelivered() {
        AlertBook book = book(route("a", Duration.ZERO, Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now);     // offset 0
        book.apply(target("t2", "HEALTHY", now), now);       // offset 1
        assertThat(ledger.toCommit(P0)).as("offset 0 waits for its firing").isEmpty();
        Notification firing = book.tick(now).get(0);
        assertThat(ledger.toCommit(P0)).isEmpty();
        ledger.release(firing.held());
        assertThat(ledger.toCommit(P0)).hasValue(2);
    }

    @Test
    void afterARestartOpenAlertsBelowTheCommitAreNotFiredAgainButKeepTheirReminderSchedule() {
        AlertBook book = book(route("a", Duration.ZERO, Duration.ofMinutes(1)));
        book.replay(target("t1", "UNHEALTHY", now));
        book.replay(target("t2", "UNHEALTHY", now));
        book.replay(target("t2", "HEALTHY", now + 1000));
        book.replayDone(P0, true, now + 90_000);
        assertThat(ledger.holds(P0)).isZero();
        assertThat(book.tick(now + 90_000)).isEmpty();
        assertThat(book.tick(now + 120_000)).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.REMINDER);
            assertThat(n.reminder()).isEqualTo(2);
        });
        assertThat(book.apply(target("t1", "HEALTHY", now + 130_000), now + 130_000))
                .extracting(Notification::type).containsExactly(Type.RESOLVED);
    }

    @Test
    void onAGroupsFirstStartOpenAlertsFireAndBlockCommitsUntilDelivered() {
        ledger.assign(P0, 3, false);
        AlertBook book = new AlertBook(List.of(route("a", Duration.ZERO, Duration.ZERO)), ledger);
        book.replay(target("t1", "UNHEALTHY", now)); // offset 0: still open
        book.replay(target("t2", "UNHEALTHY", now)); // offset 1
        book.replay(target("t2", "HEALTHY", now));   // offset 2: closed, an old episode: nothing
        book.replayDone(P0, false, now);
        assertThat(ledger.toCommit(P0)).isEmpty();
        List<Notification> out = book.tick(now);
        assertThat(out).singleElement().satisfies(n -> assertThat(n.key().id()).isEqualTo("t1"));
        assertThat(ledger.toCommit(P0)).isEmpty();
        ledger.release(out.get(0).held());
        assertThat(ledger.toCommit(P0)).as("the floor itself, once nothing below it is held").hasValue(3);
    }

    @Test
    void firingsOfOneTickFollowTheOrderOfTheirRecords() {
        AlertBook book = book(route("a", Duration.ZERO, Duration.ZERO));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add("t-" + (i * 7919 % 50));
            book.apply(target(ids.get(i), "UNHEALTHY", now), now);
        }
        assertThat(book.tick(now)).extracting(n -> n.key().id()).containsExactlyElementsOf(ids);
    }

    @Test
    void forgettingAPartitionDropsItsAlerts() {
        AlertBook book = book(route("a", Duration.ofMinutes(5), Duration.ZERO));
        book.apply(target("t1", "UNHEALTHY", now), now);
        book.forget(P0);
        assertThat(book.open("a")).isZero();
        assertThat(book.tick(now + 600_000)).isEmpty();
    }
}
