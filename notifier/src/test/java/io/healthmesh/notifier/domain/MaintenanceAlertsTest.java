package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Observation.MaintenanceMark;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.healthmesh.notifier.domain.AlertScenario.MIN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Alerts and maintenance windows on the fake clock: only new alerts are held during a window (SILENCE or DRAIN), a
 * target already down before a window gets no alert at its end, a resolution is never held, and an episode that
 * began during a window and outlasts it alerts once the window is over.
 */
class MaintenanceAlertsTest {

    private final AlertScenario alerts = new AlertScenario("healthmesh.health-state");

    private Observation event(String status, long sinceMs, String window, String mode) {
        MaintenanceMark mark = alerts.window(window, mode);
        return new Observation(AlertKey.target("t1"), alerts.next(), "api", Map.of(), status,
                sinceMs, "TIMEOUT", null, mark, alerts.now);
    }

    @Test
    void noAlertWhileASilenceCoversAGoingDown() {
        AlertBook book = alerts.book();
        book.apply(event("HEALTHY", alerts.now, "m", "SILENCE"), alerts.now);
        assertThat(book.apply(event("UNHEALTHY", alerts.now, "m", "SILENCE"), alerts.now)).isEmpty();
        assertThat(alerts.run(book, alerts.now + 600_000)).as("ten minutes down under the window").isEmpty();
        assertThat(alerts.ledger.holds(alerts.partition)).as("a held episode holds no offset").isZero();
    }

    @Test
    void noAlertWhileADrainCoversAGoingDownEither() {
        AlertBook book = alerts.book();
        book.apply(event("UNHEALTHY", alerts.now, "d", "DRAIN"), alerts.now);
        assertThat(alerts.run(book, alerts.now + 600_000)).isEmpty();
    }

    @Test
    void aTargetDownBeforeTheWindowGetsNoAlertAtItsEnd() {
        AlertBook book = alerts.book();
        long downAt = alerts.now;
        book.apply(event("UNHEALTHY", downAt, null, null), alerts.now);
        alerts.now += 10_000; // within the minimum duration: not fired yet
        book.apply(event("UNHEALTHY", downAt, "m", "SILENCE"), alerts.now);
        assertThat(alerts.run(book, alerts.now + 120_000)).isEmpty();
        assertThat(book.apply(event("UNHEALTHY", downAt, null, null), alerts.now)).as("the window's end").isEmpty();
        assertThat(alerts.run(book, alerts.now + 600_000)).as("still down long after the window").isEmpty();
        assertThat(book.apply(event("HEALTHY", alerts.now, null, null), alerts.now))
                .as("nothing fired, nothing to resolve").isEmpty();
        assertThat(alerts.ledger.holds(alerts.partition)).isZero();
    }

    @Test
    void aResolutionOfAnAlertFiredBeforeTheWindowIsDeliveredDuringIt() {
        AlertBook book = alerts.book();
        long downAt = alerts.now;
        book.apply(event("UNHEALTHY", downAt, null, null), alerts.now);
        assertThat(alerts.run(book, alerts.now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
        book.apply(event("UNHEALTHY", downAt, "m", "SILENCE"), alerts.now);
        assertThat(alerts.run(book, alerts.now + 900_000)).as("no reminders under the window").isEmpty();
        List<Notification> resolved = book.apply(event("HEALTHY", alerts.now, "m", "SILENCE"), alerts.now);
        assertThat(resolved).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.RESOLVED);
            assertThat(n.startMs()).isEqualTo(downAt);
        });
    }

    @Test
    void anOutageThatBeganDuringTheWindowAndOutlastsItAlertsAfterTheEnd() {
        AlertBook book = alerts.book();
        long downAt = alerts.now;
        book.apply(event("UNHEALTHY", downAt, "m", "DRAIN"), alerts.now);
        assertThat(alerts.run(book, alerts.now + 120_000)).isEmpty();
        long windowEnd = alerts.now;
        assertThat(book.apply(event("UNHEALTHY", downAt, null, null), alerts.now)).isEmpty();
        List<Notification> sent = alerts.run(book, alerts.now + 60_000);
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.FIRING);
            assertThat(n.dueMs()).as("the minimum duration counts from the window's end")
                    .isEqualTo(windowEnd + MIN.toMillis());
            assertThat(n.startMs()).as("the outage's own start").isEqualTo(downAt);
        });
        assertThat(book.apply(event("HEALTHY", alerts.now, null, null), alerts.now)).extracting(Notification::type)
                .containsExactly(Type.RESOLVED);
    }

    @Test
    void aRecoveryInsideTheWindowOfAnOutageThatBeganThereSendsNothing() {
        AlertBook book = alerts.book();
        book.apply(event("UNHEALTHY", alerts.now, "m", "SILENCE"), alerts.now);
        alerts.run(book, alerts.now + 120_000);
        assertThat(book.apply(event("HEALTHY", alerts.now, "m", "SILENCE"), alerts.now)).isEmpty();
        assertThat(book.apply(event("HEALTHY", alerts.now, null, null), alerts.now)).isEmpty();
        assertThat(alerts.run(book, alerts.now + 600_000)).isEmpty();
    }

    @Test
    void aRestartRebuildsHeldAndDownBeforeEpisodesWithoutSendingThem() {
        AlertBook first = alerts.book();
        long downAt = alerts.now;
        Observation opened = event("UNHEALTHY", downAt, "m", "SILENCE");
        first.apply(opened, alerts.now);

        CommitLedger fresh = new CommitLedger();
        fresh.assign(alerts.partition, 0, true);
        AlertBook again = new AlertBook(List.of(new RoutePolicy("ops", RouteFilter.DEFAULT, MIN,
                Duration.ofMinutes(5), true)), fresh);
        again.replay(opened);
        again.replayDone(alerts.partition, true, alerts.now);
        alerts.now += 120_000;
        assertThat(again.tick(alerts.now)).isEmpty();
        assertThat(again.apply(event("UNHEALTHY", downAt, null, null), alerts.now)).isEmpty();
        assertThat(alerts.run(again, alerts.now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
    }
}
