package io.healthmesh.notifier.domain;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The timing rules of one route: what it alerts on, how long an alert must last before it fires, how often it is
 * repeated while it lasts, and whether its end is announced.
 *
 * @param route the route's name (part of every idempotency key)
 * @param filter what alerts on this route
 * @param minDuration how long the alerting state must last before the alert fires; zero = at once
 * @param repeat interval of reminders while the alert lasts; zero = no reminders
 * @param resolved whether a resolved notification is sent when a fired alert ends
 */
public record RoutePolicy(String route, RouteFilter filter, Duration minDuration, Duration repeat, boolean resolved) {

    public RoutePolicy {
        requireNonNull(route, "route");
        requireNonNull(filter, "filter");
        requireNonNull(minDuration, "minDuration");
        requireNonNull(repeat, "repeat");
        if (minDuration.isNegative() || repeat.isNegative()) {
            throw new IllegalArgumentException("minDuration, repeat: negative (expected: >= 0)");
        }
    }
}
