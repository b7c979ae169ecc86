package io.healthmesh.core.target;

/** Optional TCP payload exchange: bytes to send after connecting and text the response must contain. */
public record TcpSpec(String send, String expect) {

    /** Connect only. */
    public static final TcpSpec CONNECT_ONLY = new TcpSpec(null, null);

    public boolean hasPayload() {
        return send != null || expect != null;
    }
}
