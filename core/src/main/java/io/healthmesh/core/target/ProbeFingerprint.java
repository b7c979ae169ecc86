package io.healthmesh.core.target;

import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * The generation of a target: a 64-bit fingerprint of the parameters that define <em>what</em> is probed
 * (protocol, address, port and the protocol section). Thresholds, timing, group, weight,
 * labels, regions and quorum are left out on purpose: changing them keeps the counters (SPEC section 2).
 * Prober and aggregator compute it independently from the same definition and agree without talking.
 */
public final class ProbeFingerprint {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private ProbeFingerprint() {
    }

    public static long of(TargetSpec spec) {
        StringBuilder canonical = new StringBuilder(128)
                .append(spec.protocol()).append('|').append(spec.address()).append('|').append(spec.port());
        switch (spec.protocol()) {
            case HTTP, HTTPS -> {
                HttpSpec h = spec.http();
                canonical.append('|').append(h.method()).append('|').append(h.path()).append('|').append(h.host())
                        .append('|').append(h.expectedStatuses()).append('|').append(h.followRedirects())
                        .append('|').append(new TreeMap<>(h.headers())).append('|').append(h.bodyContains())
                        .append('|').append(h.tlsVerify());
            }
            case UDP -> {
                canonical.append('|').append(spec.udp().mode()).append('|').append(spec.udp().request())
                        .append('|').append(spec.udp().expectedResponse());
                // appended only when set, so that fingerprints from before these options stay the same
                canonical.append(spec.udp().hex() ? "|hex" : "").append(spec.udp().exactMatch() ? "|exact" : "");
            }
            case TCP -> canonical.append('|').append(spec.tcp().send()).append('|').append(spec.tcp().expect());
            case ICMP -> { }
        }
        if (spec.profile() != TargetProfile.GENERIC) {
            // a profile changes how the probe is made and scheduled; GENERIC adds nothing, so fingerprints of
            // definitions written before profiles existed stay the same
            canonical.append("|profile=").append(spec.profile());
        }
        long hash = FNV_OFFSET;
        for (byte b : canonical.toString().getBytes(StandardCharsets.UTF_8)) {
            hash ^= (b & 0xff);
            hash *= FNV_PRIME;
        }
        return hash;
    }
}
