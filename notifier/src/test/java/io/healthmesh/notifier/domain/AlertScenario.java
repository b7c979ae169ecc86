package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Observation.MaintenanceMark;
import io.healthmesh.notifier.domain.Position.PartitionRef;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the maintenance alert tests of targets ({@code MaintenanceAlertsTest}) and of groups
 * ({@code GroupMaintenanceAlertsTest}) share: one route alerting after {@link #MIN}, the ledger of one partition of
 * the events' topic, positions on it one after the other, windows ending an hour from now, and a fake clock ticked
 * second by second.
 */
final class AlertScenario {

    /** The route's minimum duration. */
    static final Duration MIN = Duration.ofSeconds(30);

    final PartitionRef partition;
    final CommitLedger ledger = new CommitLedger();
    /** The fake clock (epoch ms). */
    long now = 1_000_000;
    private long offset;

    /** Events read from partition 0 of {@code topic}. */
    AlertScenario(String topic) {
        this.partition = new PartitionRef(topic, 0);
    }

    /** A book with one route ("ops": every event, {@link #MIN}, reminders every 5 minutes, resolutions sent). */
    AlertBook book() {
        ledger.assign(partition, 0, true);
        return new AlertBook(List.of(new RoutePolicy("ops", RouteFilter.DEFAULT, MIN, Duration.ofMinutes(5), true)),
                ledger);
    }

    /** The position of the next event read. */
    Position next() {
        return new Position(partition.topic(), 0, offset++);
    }

    /** The window {@code id} in mode {@code mode}, ending an hour from now; {@code id == null}: none. */
    MaintenanceMark window(String id, String mode) {
        return id == null ? null : new MaintenanceMark(id, mode, now + 3_600_000);
    }

    /** Ticks the clock second by second up to {@code untilMs}; returns everything sent. */
    List<Notification> run(AlertBook book, long untilMs) {
        List<Notification> sent = new ArrayList<>();
        while (now < untilMs) {
            now += 1_000;
            sent.addAll(book.tick(now));
        }
        return sent;
    }
}
