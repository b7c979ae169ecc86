package io.healthmesh.core.target;

/** How a target is probed. L4 protocols run on a fixed rate, L7 on a fixed delay (SPEC section 5). */
public enum Protocol {
    TCP, UDP, HTTP, HTTPS, ICMP;

    /** True for HTTP and HTTPS: scheduled with a fixed delay, the next probe {@code interval} after the last ended. */
    public boolean isLayer7() {
        return this == HTTP || this == HTTPS;
    }
}
