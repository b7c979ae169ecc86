package io.healthmesh.probe.icmp;

/**
 * How one ICMP echo ended.
 *
 * @param status what happened
 * @param roundTripNanos time from sending to the reply, for {@link Status#REPLY}; else 0
 * @param detail short description for anything but a reply
 */
public record EchoResult(Status status, long roundTripNanos, String detail) {

    /** The ways an echo ends. */
    public enum Status {
        /** An echo reply from the destination arrived. */
        REPLY,
        /** An ICMP error (destination unreachable, time exceeded) came back for this echo (raw sockets only). */
        UNREACHABLE,
        /** The kernel refused to send: no route to the network or host. */
        NO_ROUTE,
        /** No reply before the echo's deadline. */
        TIMEOUT,
        /** ICMP cannot be used: neither socket kind is permitted, too many echoes in flight, or the pinger is closed. */
        UNAVAILABLE
    }

    static EchoResult of(Status status, String detail) {
        return new EchoResult(status, 0, detail);
    }
}
