package io.healthmesh.core.target;

/**
 * What a definition says about TLS for HTTPS and GRPC over TLS. It names material the prober holds (a trust bundle,
 * a client key) by id only: paths and keys live in the prober's settings, never in a definition.
 *
 * @param insecureSkipVerify true to accept any certificate and name (shown on the status page): the one way a GENERIC
 *                           definition turns verification off ({@link TlsVerification})
 * @param trustId the prober's trust bundle to verify against ({@code tls.trust.<id>.bundle}), or {@code null} for
 *                the JDK's default trust store
 * @param clientKeyId the prober's client certificate and key to present ({@code tls.client.<id>.*}), or
 *                    {@code null} for none
 * @param minCertDaysLeft fail the check when the earliest expiry in the chain is fewer than this many days away;
 *                        0 for no such rule
 */
public record TlsSpec(boolean insecureSkipVerify, String trustId, String clientKeyId, int minCertDaysLeft) {

    /** Longest id of a trust bundle or client key. */
    public static final int MAX_ID_LENGTH = 64;
    /** Largest {@code minCertDaysLeft}: ten years. */
    public static final int MAX_MIN_DAYS_LEFT = 3650;

    /** The settings used when a definition has no {@code tls} section. */
    public static final TlsSpec DEFAULTS = new TlsSpec(false, null, null, 0);
}
