package io.healthmesh.core.target;

/**
 * How a target is probed. L4 protocols run on a fixed rate, L7 on a fixed delay (SPEC section 5). {@code DNS}
 * queries the target as a name server (one query, UDP with TCP on truncation) and runs at a fixed rate like L4.
 * New symbols are only ever appended, never inserted: the contract's Avro enum holds them in this order.
 */
public enum Protocol {
    TCP, UDP, HTTP, HTTPS, ICMP, GRPC, DNS;

    /**
     * True for HTTP, HTTPS and GRPC: scheduled with a fixed delay, the next probe {@code interval} after the last
     * ended.
     */
    public boolean isLayer7() {
        return this == HTTP || this == HTTPS || this == GRPC;
    }

    /** True for HTTP and HTTPS: the protocols that read a definition's {@code http} section. */
    public boolean usesHttpSection() {
        return this == HTTP || this == HTTPS;
    }

    /** True for the protocols that may run over TLS and so read a definition's {@code tls} section. */
    public boolean mayUseTls() {
        return this == HTTPS || this == GRPC;
    }
}
