package io.healthmesh.probe.resolve;

/**
 * The resolver refused a lookup because its own bound was reached (too many lookups waiting). The prober's trouble,
 * not the name's: the probe is {@code INCONCLUSIVE} ({@code queue-full}), never {@code DNS_FAILURE}.
 */
public final class ResolverBusyException extends RuntimeException {

    public ResolverBusyException(String message) {
        super(message, null, false, false);
    }
}
