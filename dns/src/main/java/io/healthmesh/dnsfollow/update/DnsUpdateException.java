package io.healthmesh.dnsfollow.update;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A query or update the zone's primary did not carry out, with why, as the {@code reason} label of
 * {@code healthmesh_dns_failed_total} shows it.
 */
public final class DnsUpdateException extends Exception {

    /** Why a query or update failed. */
    public enum Reason {
        /** No answer: the server is down, unreachable, or did not answer in time. */
        UNREACHABLE,
        /** The server is not authoritative for the zone (NOTAUTH without a TSIG error, NOTZONE, or no AA bit). */
        NOT_AUTHORITATIVE,
        /** REFUSED: the server's policy (allow-update, update-policy) does not let this key change the zone. */
        REFUSED,
        /** The server does not know the key's name (TSIG BADKEY). */
        BADKEY,
        /** The server knows the key but the signature does not verify: a wrong secret or algorithm (BADSIG). */
        BADSIG,
        /** The clocks differ by more than the TSIG fudge (BADTIME). */
        BADTIME,
        /** The answer was not signed by the key, or its signature does not verify. */
        UNSIGNED_ANSWER,
        /** SERVFAIL: the server could not apply it (e.g. a journal it cannot write). */
        SERVFAIL,
        /** Any other answer code. */
        OTHER;

        /** The metric label, e.g. {@code not_authoritative}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Reason reason;

    public DnsUpdateException(Reason reason, String message) {
        super(message);
        this.reason = requireNonNull(reason, "reason");
    }

    public DnsUpdateException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
