package io.healthmesh.probe.http;

import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A one-line summary of the certificate chain a TLS peer presented (subject, issuer, names, expiry and days left, the
 * earliest expiry in the chain, protocol and cipher), for a trace of a probe. Computed only when someone traces the
 * probe: never on the prober's path.
 */
public final class PeerCertificates {

    private PeerCertificates() {
    }

    /** The summary of the session of {@code ssl} (after a successful handshake), or why there is none. */
    public static String summary(SslHandler ssl) {
        if (ssl == null) {
            return "no TLS session";
        }
        return summary(ssl.engine().getSession(), Instant.now());
    }

    /** The summary of {@code session} as of {@code now}. */
    public static String summary(SSLSession session, Instant now) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return "no peer certificate (" + session.getProtocol() + ", " + session.getCipherSuite() + ")";
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return "no X.509 peer certificate";
        }
        Instant earliest = leaf.getNotAfter().toInstant();
        for (Certificate c : chain) {
            if (c instanceof X509Certificate x509 && x509.getNotAfter().toInstant().isBefore(earliest)) {
                earliest = x509.getNotAfter().toInstant();
            }
        }
        Instant leafExpiry = leaf.getNotAfter().toInstant();
        return "subject " + leaf.getSubjectX500Principal().getName()
                + "; issuer " + leaf.getIssuerX500Principal().getName()
                + "; names " + names(leaf)
                + "; expires " + leafExpiry + " (" + daysLeft(now, leafExpiry) + " days left)"
                + "; chain of " + chain.length + ", earliest expiry " + earliest
                + " (" + daysLeft(now, earliest) + " days left)"
                + "; " + session.getProtocol() + " " + session.getCipherSuite();
    }

    private static long daysLeft(Instant now, Instant expiry) {
        return Duration.between(now, expiry).toDays();
    }

    /** The DNS names and IP addresses of the subject alternative names (at most 8). */
    private static String names(X509Certificate certificate) {
        Collection<List<?>> alternatives;
        try {
            alternatives = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return "unreadable";
        }
        if (alternatives == null) {
            return "none";
        }
        List<String> names = new ArrayList<>();
        for (List<?> entry : alternatives) {
            // 2 = dNSName, 7 = iPAddress (RFC 5280 GeneralName)
            if (entry.size() == 2 && (Integer.valueOf(2).equals(entry.get(0)) || Integer.valueOf(7).equals(entry.get(0)))) {
                names.add(String.valueOf(entry.get(1)));
            }
        }
        if (names.size() > 8) {
            return String.join(",", names.subList(0, 8)) + ",... (" + names.size() + ")";
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }
}
