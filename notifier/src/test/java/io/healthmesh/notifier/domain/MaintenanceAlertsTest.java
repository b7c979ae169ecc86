package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Observation.MaintenanceMark;
import io.healthmesh.notifier.domain.Position.PartitionRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Alerts and maintenance windows on the fake clock: only new alerts are held during a window (SILENCE or DRAIN), a
 * target already down before a window gets no alert at its end, a resolution is never held, and an episode that
 * began during a window and outlasts it alerts once the window is over.
 */
class MaintenanceAlertsTest {

    private static final String TOPIC = "healthmesh.health-state";
    private static final PartitionRef P0 = new PartitionRef(TOPIC, 0);
    private static final Duration MIN = Duration.ofSeconds(30);

    private final CommitLedger ledger = new CommitLedger();
    private long offset;
    private long now = 1_000_000;

    private AlertBook book() {
        ledger.assign(P0, 0, true);
        return new AlertBook(List.of(new RoutePolicy("ops", RouteFilter.DEFAULT, MIN, Duration.ofMinutes(5), true)),
                ledger);
    }

    private Observation event(String status, long sinceMs, String window, String mode) {
        MaintenanceMark mark = window == null ? null : new MaintenanceMark(window, mode, now + 3_600_000);
        return new Observation(AlertKey.target("t1"), new Position(TOPIC, 0, offset++), "api", Map.of(), status,
                sinceMs, "TIMEOUT", null, mark, now);
    }

    /** Ticks the clock second by second up to {@code untilMs}; returns everything sent. */
    private List<Notification> run(AlertBook book, long untilMs) {
        List<Notification> sent = new ArrayList<>();
        while (now < untilMs) {
            now += 1_000;
            sent.addAll(book.tick(now));
        }
        return sent;
    }

    @Test
    void noAlertWhileASilenceCoversAGoingDown() {
        AlertBook book = book();
        book.apply(event("HEALTHY", now, "m", "SILENCE"), now);
        assertThat(book.apply(event("UNHEALTHY", now, "m", "SILENCE"), now)).isEmpty();
        assertThat(run(book, now + 600_000)).as("ten minutes down under the window").isEmpty();
        assertThat(ledger.holds(P0)).as("a held episode holds no offset").isZero();
    }

    @Test
    void noAlertWhileADrainCoversAGoingDownEither() {
        AlertBook book = book();
        book.apply(event("UNHEALTHY", now, "d", "DRAIN"), now);
        assertThat(run(book, now + 600_000)).isEmpty();
    }

    @Test
    void aTargetDownBeforeTheWindowGetsNoAlertAtItsEnd() {
        AlertBook book = book();
        long downAt = now;
        book.apply(event("UNHEALTHY", downAt, null, null), now);
        now += 10_000; // within the minimum duration: not fired yet
        book.apply(event("UNHEALTHY", downAt, "m", "SILENCE"), now);
        assertThat(run(book, now + 120_000)).isEmpty();
        assertThat(book.apply(event("UNHEALTHY", downAt, null, null), now)).as("the window's end").isEmpty();
        assertThat(run(book, now + 600_000)).as("still down long after the window").isEmpty();
        assertThat(book.apply(event("HEALTHY", now, null, null), now)).as("nothing fired, nothing to resolve")
                .isEmpty();
        assertThat(ledger.holds(P0)).isZero();
    }

    @Test
    void aResolutionOfAnAlertFiredBeforeTheWindowIsDeliveredDuringIt() {
        AlertBook book = book();
        long downAt = now;
        book.apply(event("UNHEALTHY", downAt, null, null), now);
        assertThat(run(book, now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
        book.apply(event("UNHEALTHY", downAt, "m", "SILENCE"), now);
        assertThat(run(book, now + 900_000)).as("no reminders under the window").isEmpty();
        List<Notification> resolved = book.apply(event("HEALTHY", now, "m", "SILENCE"), now);
        assertThat(resolved).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.RESOLVED);
            assertThat(n.startMs()).isEqualTo(downAt);
        });
    }

    @Test
    void anOutageThatBeganDuringTheWindowAndOutlastsItAlertsAfterTheEnd() {
        AlertBook book = book();
        long downAt = now;
        book.apply(event("UNHEALTHY", downAt, "m", "DRAIN"), now);
        assertThat(run(book, now + 120_000)).isEmpty();
        long windowEnd = now;
        assertThat(book.apply(event("UNHEALTHY", downAt, null, null), now)).isEmpty();
        List<Notification> sent = run(book, now + 60_000);
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.FIRING);
            assertThat(n.dueMs()).as("the minimum duration counts from the window's end")
                    .isEqualTo(windowEnd + MIN.toMillis());
            assertThat(n.startMs()).as("the outage's own start").isEqualTo(downAt);
        });
        assertThat(book.apply(event("HEALTHY", now, null, null), now)).extracting(Notification::type)
                .containsExactly(Type.RESOLVED);
    }

    @Test
    void aRecoveryInsideTheWindowOfAnOutageThatBeganThereSendsNothing() {
        AlertBook book = book();
        book.apply(event("UNHEALTHY", now, "m", "SILENCE"), now);
        run(book, now + 120_000);
        assertThat(book.apply(event("HEALTHY", now, "m", "SILENCE"), now)).isEmpty();
        assertThat(book.apply(event("HEALTHY", now, null, null), now)).isEmpty();
        assertThat(run(book, now + 600_000)).isEmpty();
    }

    @Test
    void aRestartRebuildsHeldAndDownBeforeEpisodesWithoutSendingThem() {
        AlertBook first = book();
        long downAt = now;
        Observation opened = event("UNHEALTHY", downAt, "m", "SILENCE");
        first.apply(opened, now);

        CommitLedger fresh = new CommitLedger();
        fresh.assign(P0, 0, true);
        AlertBook again = new AlertBook(List.of(new RoutePolicy("ops", RouteFilter.DEFAULT, MIN,
                Duration.ofMinutes(5), true)), fresh);
        again.replay(opened);
        again.replayDone(P0, true, now);
        now += 120_000;
        assertThat(again.tick(now)).isEmpty();
        assertThat(again.apply(event("UNHEALTHY", downAt, null, null), now)).isEmpty();
        assertThat(run(again, now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
    }
}
