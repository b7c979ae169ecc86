package io.healthmesh.core.target;

/**
 * Whether a check verifies the server's certificate, and why: the one rule behind the prober's TLS contexts, the
 * status page's note, the CLI's warnings and the default a new definition is given.
 *
 * <p>Verification became the default for GENERIC HTTPS after definitions had been stored under the old default (off).
 * The contract cannot tell "written before" from "said false": both read {@code http.tlsVerify = false}. So the
 * default is applied where a definition is written ({@link #verifiesWhenUnsaid}, called by the target file reader,
 * which then stores an explicit {@code tlsVerify: true}), and a stored GENERIC HTTPS record that neither verifies
 * nor says {@code tls.insecureSkipVerify} keeps probing as it did ({@link #OFF_BY_OLD_DEFAULT}): its verdict never
 * changes under it, and the page and the CLI say it is not verified until it is applied again.
 */
public enum TlsVerification {

    /** The check speaks no TLS of its own (a plain HTTP check's redirect to https verifies only with tlsVerify). */
    NO_TLS,
    /** The chain against the trust store (the JDK's or the definition's {@code tls.trustId}) and the name. */
    VERIFIED,
    /** Off because the definition says {@code tls.insecureSkipVerify: true}. */
    SKIPPED_BY_DEFINITION,
    /** Off under a product profile: the load balancers a profile reproduces do not verify their backends. */
    OFF_UNDER_PROFILE,
    /** Off for a GENERIC HTTPS definition stored before verification was the default and not applied since. */
    OFF_BY_OLD_DEFAULT;

    /** True when the server's chain and name are checked. */
    public boolean verifies() {
        return this == VERIFIED;
    }

    /** The state of {@code spec}. */
    public static TlsVerification of(TargetSpec spec) {
        return of(spec.protocol(), spec.profile(), spec.grpc().tls(), spec.http().tlsVerify(),
                spec.tls().insecureSkipVerify());
    }

    /**
     * The state of a definition given the fields that decide it, for callers holding the contract's record rather
     * than a {@link TargetSpec} (the status page reads many definitions and maps none).
     */
    public static TlsVerification of(Protocol protocol, TargetProfile profile, boolean grpcTls, boolean httpTlsVerify,
                                     boolean insecureSkipVerify) {
        if (protocol == Protocol.HTTP) {
            return httpTlsVerify ? VERIFIED : NO_TLS;
        }
        boolean tls = protocol == Protocol.HTTPS || protocol == Protocol.GRPC && grpcTls;
        if (!tls) {
            return NO_TLS;
        }
        if (insecureSkipVerify) {
            return SKIPPED_BY_DEFINITION;
        }
        if (protocol == Protocol.GRPC || httpTlsVerify) {
            return VERIFIED;
        }
        return profile == null || profile == TargetProfile.GENERIC ? OFF_BY_OLD_DEFAULT : OFF_UNDER_PROFILE;
    }

    /**
     * The {@code http.tlsVerify} a new definition gets when it does not say: true for GENERIC HTTPS unless it says
     * {@code tls.insecureSkipVerify}; false under a product profile (as the product does) and for plain HTTP.
     */
    public static boolean verifiesWhenUnsaid(Protocol protocol, TargetProfile profile, boolean insecureSkipVerify) {
        return protocol == Protocol.HTTPS && (profile == null || profile == TargetProfile.GENERIC)
                && !insecureSkipVerify;
    }
}
