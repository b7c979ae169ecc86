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
 * A group's fail-open alert under a window for the group, on the fake clock: the rules of targets' alerts apply
 * unchanged (a fail-open that begins under the window does not fire while it lasts and fires as new after its end; one
 * that fired before goes on without reminders and its resolution is sent). Each group event carries its own time, as
 * the aggregator writes it.
 */
class GroupMaintenanceAlertsTest {

    private static final String TOPIC = "healthmesh.group-state";
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

    /** A group event of "web" produced now: FAIL_OPEN or ROUTING, under {@code window} (null: none). */
    private Observation group(String status, String window) {
        MaintenanceMark mark = window == null ? null : new MaintenanceMark(window, "SILENCE", now + 3_600_000);
        return new Observation(AlertKey.group("web"), new Position(TOPIC, 0, offset++), "web", Map.of(), status, now,
                "0/2 healthy", null, mark, now);
    }

    private List<Notification> run(AlertBook book, long untilMs) {
        List<Notification> sent = new ArrayList<>();
        while (now < untilMs) {
            now += 1_000;
            sent.addAll(book.tick(now));
        }
        return sent;
    }

    @Test
    void aFailOpenUnderTheGroupsWindowDoesNotFireWhileItLasts() {
        AlertBook book = book();
        book.apply(group(Observation.ROUTING, "m"), now);
        assertThat(book.apply(group(Observation.FAIL_OPEN, "m"), now)).isEmpty();
        assertThat(run(book, now + 600_000)).as("ten minutes in fail-open under the window").isEmpty();
        assertThat(ledger.holds(P0)).as("a held episode holds no offset").isZero();
        assertThat(book.apply(group(Observation.ROUTING, "m"), now)).as("recovered inside: nothing to resolve")
                .isEmpty();
    }

    @Test
    void aFailOpenThatOutlastsTheWindowFiresAsNewFromItsEnd() {
        AlertBook book = book();
        long openedAt = now;
        book.apply(group(Observation.FAIL_OPEN, "m"), now);
        run(book, now + 120_000);
        long windowEnd = now;
        assertThat(book.apply(group(Observation.FAIL_OPEN, null), now)).as("the window's end event").isEmpty();
        List<Notification> sent = run(book, now + 60_000);
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo(Type.FIRING);
            assertThat(n.key()).isEqualTo(AlertKey.group("web"));
            assertThat(n.dueMs()).as("the minimum duration counts from the window's end")
                    .isEqualTo(windowEnd + MIN.toMillis());
            assertThat(n.startMs()).isEqualTo(openedAt);
        });
        assertThat(book.apply(group(Observation.ROUTING, null), now)).extracting(Notification::type)
                .containsExactly(Type.RESOLVED);
    }

    @Test
    void aFailOpenThatFiredBeforeTheWindowGoesOnWithoutRemindersAndResolves() {
        AlertBook book = book();
        book.apply(group(Observation.FAIL_OPEN, null), now);
        assertThat(run(book, now + 31_000)).extracting(Notification::type).containsExactly(Type.FIRING);
        assertThat(book.apply(group(Observation.FAIL_OPEN, "m"), now)).as("the window's start").isEmpty();
        assertThat(run(book, now + 900_000)).as("no reminders under the window").isEmpty();
        assertThat(book.apply(group(Observation.ROUTING, "m"), now)).extracting(Notification::type)
                .as("the resolution is sent during the window").containsExactly(Type.RESOLVED);
    }

    @Test
    void aFailOpenNotYetFiredWhenTheWindowBeganNeverFires() {
        AlertBook book = book();
        book.apply(group(Observation.FAIL_OPEN, null), now);
        now += 10_000; // within the minimum duration
        book.apply(group(Observation.FAIL_OPEN, "m"), now);
        run(book, now + 120_000);
        assertThat(book.apply(group(Observation.FAIL_OPEN, null), now)).isEmpty();
        assertThat(run(book, now + 600_000)).as("in fail-open since before the window").isEmpty();
    }
}
