package io.healthmesh.core.probe;

import java.util.Locale;
import java.util.Optional;

/**
 * Why a probe is {@link Outcome#INCONCLUSIVE}: the prober's own trouble, never the target's (BEHAVIOUR.md section 4). The
 * cause leads the result's detail as {@code "<label>: <what happened>"}, so that a reader of the detail alone (a
 * state event, the query API, a log) can tell it, and {@link #ofDetail} can count it.
 */
public enum InconclusiveCause {
    /** The probe started later than the bound (a share of the smaller of interval and timeout) after its plan. */
    LATE_START,
    /** One of the prober's own bounded queues or tables was full: probes in flight, ICMP echoes, the resolver's. */
    QUEUE_FULL,
    /** The event loop that ran the probe stalled for longer than the bound while the probe ran. */
    LOOP_STALL,
    /** The probe engine failed in a way that says nothing about the target (a bug, shutdown, resources). */
    INTERNAL_ERROR,
    /**
     * The prober had no local address and port for the connection ({@code EADDRNOTAVAIL}, {@code EADDRINUSE}): its
     * ephemeral ports are used up, or its source address is not one of its host's.
     */
    LOCAL_PORTS;


    /** The label that leads the detail and names the metric's {@code cause}, e.g. {@code late-start}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The detail of an inconclusive result: {@code "<label>: <message>"}. */
    public String detail(String message) {
        return label() + ": " + message;
    }

    /** The cause that leads {@code detail}, if one does. */
    public static Optional<InconclusiveCause> ofDetail(String detail) {
        if (detail != null) {
            for (InconclusiveCause cause : values()) {
                if (detail.startsWith(cause.label() + ":")) {
                    return Optional.of(cause);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The bound on lateness and stalls for a target: {@code fraction x min(intervalMs, timeoutMs)}, in milliseconds.
     *
     * @param fraction share of the smaller of interval and timeout, above 0 and at most 1
     */
    public static long boundMs(double fraction, int intervalMs, int timeoutMs) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction: " + fraction + " (expected: above 0, at most 1)");
        }
        return Math.max(1, Math.round(fraction * Math.min(intervalMs, timeoutMs)));
    }
}
