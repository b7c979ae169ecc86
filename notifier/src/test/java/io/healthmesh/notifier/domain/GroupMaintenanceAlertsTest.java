package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Observation.MaintenanceMark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.notifier.domain.AlertScenario.MIN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group's fail-open alert under a window for the group, on the fake clock: the rules of targets' alerts apply
 * unchanged (a fail-open that begins under the window does not fire while it lasts and fires as new after its end; one
 * that fired before goes on without reminders and its resolution is sent). Each group event carries its own time, as
 * the aggregator writes it.
 */
class GroupMaintenanceAlertsTest {

    private final AlertScenario alerts = new AlertScenario("healthmesh.group-state");

    /** A group event of "web" produced now: FAIL_OPEN or ROUTING, under {@code window} (null: none). */
    private Observation group(String status, String window) {
        MaintenanceMark mark = alerts.window(window, "SILENCE");
        return new Observation(AlertKey.group("web"), alerts.next(), "web", Map.of(), status, alerts.now,
                "0/2 healthy", null, mark, alerts.now);
    }

    @Test
    void aFailOpenUnderTheGroupsWindowDoesNotFireWhileItLasts() {
        AlertBook book = alerts.book();
        book.apply(group(Observation.ROUTING, "m"), alerts.now);
        assertThat(book.apply(group(Observation.FAIL_OPEN, "m"), alerts.now)).isEmpty();
        assertThat(alerts.run(book, alerts.now + 600_000)).as("ten minutes in fail-open under the window").isEmpty();
        assertThat(alerts.ledger.holds(alerts.partition)).as("a held episode holds no offset").isZero();
        assertThat(book.apply(group(Observation.ROUTING, "m"), alerts.now)).as("recovered inside: nothing to resolve")
                .isEmpty();
    }

    @Test
    void aFailOpenThatOutlastsTheWindowFiresAsNewFromItsEnd() {
        AlertBook book = alerts.book();
        long openedAt = alerts.now;
        book.apply(group(Observation.FAIL_OPEN, "m"), alerts.now);
        alerts.run(book, alerts.now + 120_000);
        long windowEnd = alerts.now;
        assertThat(book.apply(group(Observation.FAIL_OPEN, null), alerts.now)).as("the window's end event").isEmpty();
        List<Notification> sent = alerts.run(book, alerts.now + 60_000);
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.FIRING);
            assertThat(n.key()).isEqualTo(AlertKey.group("web"));
            assertThat(n.dueMs()).as("the minimum duration counts from the window's end")
                    .isEqualTo(windowEnd + MIN.toMillis());
            assertThat(n.startMs()).isEqualTo(openedAt);
        });
        assertThat(book.apply(group(Observation.ROUTING, null), alerts.now)).extracting(Notification::type)
                .containsExactly(Type.RESOLVED);
    }

    @Test
    void aFailOpenThatFiredBeforeTheWindowGoesOnWithoutRemindersAndResolves() {
        AlertBook book = alerts.book();
        book.apply(group(Observation.FAIL_OPEN, null), alerts.now);
        assertThat(alerts.run(book, alerts.now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
        assertThat(book.apply(group(Observation.FAIL_OPEN, "m"), alerts.now)).as("the window's start").isEmpty();
        assertThat(alerts.run(book, alerts.now + 900_000)).as("no reminders under the window").isEmpty();
        assertThat(book.apply(group(Observation.ROUTING, "m"), alerts.now)).extracting(Notification::type)
                .as("the resolution is sent during the window").containsExactly(Type.RESOLVED);
    }

    @Test
    void aFailOpenNotYetFiredWhenTheWindowBeganNeverFires() {
        AlertBook book = alerts.book();
        book.apply(group(Observation.FAIL_OPEN, null), alerts.now);
        alerts.now += 10_000; // within the minimum duration
        book.apply(group(Observation.FAIL_OPEN, "m"), alerts.now);
        alerts.run(book, alerts.now + 120_000);
        assertThat(book.apply(group(Observation.FAIL_OPEN, null), alerts.now)).isEmpty();
        assertThat(alerts.run(book, alerts.now + 600_000)).as("in fail-open since before the window").isEmpty();
    }
}
