package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;

import static java.util.Objects.requireNonNull;

/**
 * What one probe found, with its timings. Phases are {@code null} where they do not apply
 * (no connection made, no TLS, no response byte). For an HTTP probe that followed redirects the
 * phases are those of the last hop, while {@code latencyMicros} covers every hop.
 *
 * @param latencyMicros total duration from the probe's start to its verdict
 * @param connectMicros time to establish the connection (of the last hop)
 * @param tlsMicros TLS handshake time (of the last hop)
 * @param firstByteMicros time from the start of the last hop to its first response byte
 * @param httpStatus status of the last HTTP response, or {@code null}
 * @param detail short human-readable detail (at most {@value #MAX_DETAIL} characters), or {@code null}
 * @param bytesRead response bytes the probe read from the network (after TLS decryption), all hops together
 * @param certNotAfterMs TLS probes: the server's leaf certificate's expiry, epoch milliseconds, or {@code null}
 * @param chainNotAfterMs TLS probes: the earliest expiry of the chain the server sent, or {@code null}
 */
public record ProbeReport(Outcome outcome, long latencyMicros, Long connectMicros, Long tlsMicros,
                          Long firstByteMicros, Integer httpStatus, String detail, long bytesRead,
                          Long certNotAfterMs, Long chainNotAfterMs) {

    public static final int MAX_DETAIL = 200;

    public ProbeReport {
        requireNonNull(outcome, "outcome");
        if (detail != null && detail.length() > MAX_DETAIL) {
            detail = detail.substring(0, MAX_DETAIL - 1) + "…";
        }
    }

    /** A report without certificate facts: every probe without a TLS handshake. */
    public ProbeReport(Outcome outcome, long latencyMicros, Long connectMicros, Long tlsMicros,
                       Long firstByteMicros, Integer httpStatus, String detail, long bytesRead) {
        this(outcome, latencyMicros, connectMicros, tlsMicros, firstByteMicros, httpStatus, detail, bytesRead, null,
                null);
    }

    /** A report without a byte count, kept for callers written before {@code bytesRead} existed. */
    public ProbeReport(Outcome outcome, long latencyMicros, Long connectMicros, Long tlsMicros,
                       Long firstByteMicros, Integer httpStatus, String detail) {
        this(outcome, latencyMicros, connectMicros, tlsMicros, firstByteMicros, httpStatus, detail, 0, null, null);
    }

    public static ProbeReport of(Outcome outcome, long latencyMicros, String detail) {
        return new ProbeReport(outcome, latencyMicros, null, null, null, null, detail, 0, null, null);
    }
}
