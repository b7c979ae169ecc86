package io.healthmesh.probe;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * How a worker's probes look to the backends they check: the source address they leave from and an optional marker
 * carried by L4 probes. 000 and 002 tell operators to allow-list the checker's source address (CLB's VIP, NLB's
 * local address); with {@code bindAddress} set, every TCP, UDP and HTTP(S) probe of this worker leaves from that
 * address, so one allow-list entry (or firewall rule) covers it. 000 marks its L4 checks with "HEALTH CHECK": with
 * {@code l4Marker} set, a connect-only TCP probe writes it once connected (before its reset), and a UDP port-mode
 * probe sends it as its datagram.
 *
 * @param bindAddress the local address probes bind to, or {@code null} for the system's choice; it must be an address
 *                    of this host and of the family of the targets (an IPv4 source cannot reach an IPv6 target).
 *                    ICMP echoes keep the system's choice.
 * @param l4Marker printable ASCII, at most {@value #MAX_MARKER_LENGTH} characters; empty for none
 */
public record ProbeSource(InetAddress bindAddress, String l4Marker) {

    public static final int MAX_MARKER_LENGTH = 64;

    /** The system's source address and no marker. */
    public static final ProbeSource NONE = new ProbeSource(null, "");

    public ProbeSource {
        l4Marker = l4Marker == null ? "" : l4Marker;
        if (l4Marker.length() > MAX_MARKER_LENGTH || l4Marker.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw new IllegalArgumentException("l4Marker: '" + l4Marker + "' (expected: 0.." + MAX_MARKER_LENGTH
                    + " printable ASCII characters)");
        }
    }

    /** The marker's bytes, or {@code null} when there is none. */
    public byte[] markerBytes() {
        return l4Marker.isEmpty() ? null : l4Marker.getBytes(StandardCharsets.US_ASCII);
    }
}
