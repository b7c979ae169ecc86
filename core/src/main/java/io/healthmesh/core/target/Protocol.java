package io.healthmesh.core.target;

/**
 * How a target is probed. L4 protocols run on a fixed rate, L7 on a fixed delay (SPEC section 5). New symbols are
 * appended, never inserted: the Avro enum of the contract holds them in this order.
 */
public enum Protocol {
    TCP, UDP, HTTP, HTTPS, ICMP, GRPC;

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
