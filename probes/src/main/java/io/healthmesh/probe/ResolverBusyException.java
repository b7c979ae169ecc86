package io.healthmesh.probe;

/**
 * The resolver refused a lookup because its own bound was reached (too many lookups waiting). The prober's trouble,
 * not the name's: the probe is {@code INCONCLUSIVE} ({@code queue-full}), never {@code DNS_FAILURE}.
 */
final class ResolverBusyException extends RuntimeException {

    ResolverBusyException(String message) {
        super(message, null, false, false);
    }
}
