package io.healthmesh.core.target;

/**
 * How a target is probed. L4 protocols run on a fixed rate, L7 on a fixed delay (SPEC section 5). {@code DNS}
 * queries the target as a name server (one query, UDP with TCP on truncation) and runs at a fixed rate like L4.
 * New symbols are only ever appended: the contract's enum keeps this order.
 */
public enum Protocol {
    TCP, UDP, HTTP, HTTPS, ICMP, DNS;

    /** True for HTTP and HTTPS: scheduled with a fixed delay, the next probe {@code interval} after the last ended. */
    public boolean isLayer7() {
        return this == HTTP || this == HTTPS;
    }
}
