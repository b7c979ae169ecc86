package io.healthmesh.haproxy.plan;

/**
 * The administrative state the driver sets on a server ({@code set server <b>/<s> state ...}). The driver sets
 * admin states, never the health state: these stay as set whatever checks HAProxy runs itself.
 */
public enum ServerState {
    /** Takes new traffic. */
    READY,
    /** Finishes what it has, takes no new connection, stays out of the balancing. */
    DRAIN,
    /** Out of the balancing; the state a server must be in before it is deleted. */
    MAINT;

    /** The word the Runtime API uses. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
