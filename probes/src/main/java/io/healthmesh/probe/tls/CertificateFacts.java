package io.healthmesh.probe.tls;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * What a TLS handshake says about the server's certificates: the leaf's expiry and the earliest expiry among the
 * certificates it sent (an intermediate may expire first). Dates only: nothing the certificates say in text (names,
 * issuers) goes into a result or a detail.
 *
 * @param leafNotAfterMs the leaf certificate's {@code notAfter}, epoch milliseconds
 * @param chainNotAfterMs the earliest {@code notAfter} of the chain the server sent, epoch milliseconds
 */
public record CertificateFacts(long leafNotAfterMs, long chainNotAfterMs) {

    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    /** The facts of {@code session}'s peer chain, or {@code null} when it has no X.509 certificate. */
    public static CertificateFacts of(SSLSession session) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        return of(chain);
    }

    /** The facts of {@code chain} (leaf first), or {@code null} when it has no X.509 certificate. */
    public static CertificateFacts of(Certificate[] chain) {
        if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return null;
        }
        long earliest = Long.MAX_VALUE;
        for (Certificate certificate : chain) {
            if (certificate instanceof X509Certificate x509) {
                earliest = Math.min(earliest, x509.getNotAfter().getTime());
            }
        }
        return new CertificateFacts(leaf.getNotAfter().getTime(), earliest);
    }

    /** Whole days from {@code nowMs} until the chain's earliest expiry; negative once it has passed. */
    public long daysLeft(long nowMs) {
        return Math.floorDiv(chainNotAfterMs - nowMs, DAY_MS);
    }

    /**
     * The detail of a failed {@code minCertDaysLeft} rule, or {@code null} when the chain lasts long enough (or the
     * rule is off, {@code minDaysLeft} 0).
     */
    public String belowMinimum(int minDaysLeft, long nowMs) {
        if (minDaysLeft <= 0) {
            return null;
        }
        long days = daysLeft(nowMs);
        if (days >= minDaysLeft) {
            return null;
        }
        String which = chainNotAfterMs < leafNotAfterMs ? "a certificate of the chain" : "the certificate";
        return "TLS: " + which + " expires in " + days + " days (minCertDaysLeft " + minDaysLeft + ")";
    }
}
