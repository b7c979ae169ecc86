package io.healthmesh.probe;

import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Names a TLS failure by its kind, never by its message: the messages of TLS exceptions carry what the server
 * sent (Netty's {@link NotSslRecordException} is a hex dump of the first bytes received, so an HTTPS probe at a
 * plain-text service would publish its banner) or what its certificate says. A detail is one of a fixed set of
 * texts, or an alert name the JDK chose from the protocol's fixed list.
 */
final class TlsFailures {

    static final String NOT_TLS = "TLS: not a TLS record (the server answered in plain text)";

    private static final int MAX_DEPTH = 8;
    /** The JDK's text for an alert the peer sent; the name comes from the JDK's own table of alerts. */
    private static final Pattern ALERT = Pattern.compile("Received fatal alert: ([a-z_]{1,40})");

    private TlsFailures() {
    }

    /** The detail of a TLS failure in {@code failure}'s cause chain, or {@code null} when there is none. */
    static String describe(Throwable failure) {
        SSLException tls = null;
        boolean certificateRejected = false;
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof NotSslRecordException) {
                return NOT_TLS;
            }
            String certificate = certificate(t);
            if (certificate != null) {
                return certificate;
            }
            if (tls == null && t instanceof SSLException e) {
                tls = e;
            }
            certificateRejected |= t instanceof CertificateException;
        }
        if (tls == null) {
            return null;
        }
        return certificateRejected ? "TLS: certificate rejected" : general(tls);
    }

    private static String certificate(Throwable t) {
        if (t instanceof CertificateExpiredException) {
            return "TLS: certificate expired";
        }
        if (t instanceof CertificateNotYetValidException) {
            return "TLS: certificate not yet valid";
        }
        if (t instanceof CertPathBuilderException) {
            return "TLS: certificate not trusted (no path to a trusted issuer)";
        }
        if (t instanceof CertPathValidatorException e) {
            return switch (e.getReason().toString()) {
                case "EXPIRED" -> "TLS: certificate expired";
                case "NOT_YET_VALID" -> "TLS: certificate not yet valid";
                case "REVOKED" -> "TLS: certificate revoked";
                default -> "TLS: certificate rejected (" + e.getReason().toString().toLowerCase(Locale.ROOT) + ")";
            };
        }
        String message = String.valueOf(t.getMessage());
        if (t instanceof CertificateException
                && (message.startsWith("No subject alternative") || message.startsWith("No name matching"))) {
            return "TLS: certificate does not match the host name";
        }
        return null; // a general CertificateException (the JDK's validator) wraps the specific one
    }

    private static String general(SSLException tls) {
        if (tls instanceof SslHandshakeTimeoutException) {
            return "TLS: handshake timed out";
        }
        String message = tls.getMessage() == null ? "" : tls.getMessage();
        if (message.startsWith("Unsupported or unrecognized SSL message")) {
            return NOT_TLS; // the JDK's engine on plain text, should Netty's own check not run first
        }
        if (message.contains("PKIX path")) {
            return "TLS: certificate not trusted (no path to a trusted issuer)";
        }
        Matcher alert = ALERT.matcher(message);
        if (alert.matches()) {
            return "TLS: the server sent alert " + alert.group(1);
        }
        if (tls instanceof SSLHandshakeException) {
            return "TLS: handshake failure";
        }
        return "TLS: " + tls.getClass().getSimpleName();
    }
}
