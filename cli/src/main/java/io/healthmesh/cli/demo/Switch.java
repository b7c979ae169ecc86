package io.healthmesh.cli.demo;

import java.time.Clock;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Whether a demo service is up at a given moment: up for {@code up}, then down for {@code down}, repeating,
 * counted from {@code start}. A pure function of the clock, so the schedule is testable without waiting.
 */
public final class Switch {

    private final Clock clock;
    private final long startMs;
    private final long upMs;
    private final long periodMs;

    public Switch(Clock clock, Duration up, Duration down) {
        this.clock = requireNonNull(clock, "clock");
        this.startMs = clock.millis();
        this.upMs = up.toMillis();
        this.periodMs = up.toMillis() + down.toMillis();
        if (upMs <= 0 || down.toMillis() <= 0) {
            throw new IllegalArgumentException("up and down must be positive: " + up + ", " + down);
        }
    }

    /** A switch that is always up. */
    public static Switch alwaysUp(Clock clock) {
        return new Switch(clock, Duration.ofDays(365_000), Duration.ofMillis(1));
    }

    public boolean isUp() {
        long elapsed = Math.max(0, clock.millis() - startMs);
        return elapsed % periodMs < upMs;
    }

    /** How the schedule reads in the banner, e.g. {@code up 15 s / down 10 s}. */
    public String describe() {
        return upMs > Duration.ofDays(1).toMillis() ? "always up"
                : "up " + upMs / 1000 + " s / down " + (periodMs - upMs) / 1000 + " s, repeating";
    }
}
