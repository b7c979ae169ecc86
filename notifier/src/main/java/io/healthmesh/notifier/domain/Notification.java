package io.healthmesh.notifier.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * One message to one route. Its {@link #idempotencyKey()} depends only on the route, the alert, the episode's start
 * and the message's type and number, so a notification sent again (after a restart or by another replica taking
 * over a partition) carries the same key and a receiver can drop the copy.
 *
 * @param route the route's name
 * @param type firing, reminder or resolved
 * @param key the target or group
 * @param startMs when the alerting state began, epoch ms
 * @param endMs when it ended (resolved only), else -1
 * @param reminder the reminder's number (1, 2, ...), 0 for firing and resolved
 * @param state the latest observation of the alert (for the message's text and labels)
 * @param held the position this notification keeps uncommitted until delivered, or {@code null}
 * @param dueMs when the notification became due, epoch ms (for the delivery-lag metric)
 */
public record Notification(String route, Type type, AlertKey key, long startMs, long endMs, int reminder,
                           Observation state, Position held, long dueMs) {

    /** What the message says. */
    public enum Type {
        /** The alert starts (after the route's minimum duration). */
        FIRING,
        /** The alert still holds (every {@code repeat}). */
        REMINDER,
        /** A fired alert is over. */
        RESOLVED
    }

    public Notification {
        requireNonNull(route, "route");
        requireNonNull(type, "type");
        requireNonNull(key, "key");
        requireNonNull(state, "state");
    }

    /** A stable key for this message: 32 hex characters of a SHA-256 over what identifies it. */
    public String idempotencyKey() {
        String identity = route + '\n' + key.kind() + '\n' + key.id() + '\n' + startMs + '\n' + type + '\n' + reminder;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
