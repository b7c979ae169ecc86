package io.healthmesh.core.target;

import java.util.List;
import java.util.regex.Pattern;

/** The encoding rules of UDP payloads: with {@code hex}, request and expected response are pairs of hex digits. */
final class UdpPayloadRules {

    private static final Pattern HEX_BYTES = Pattern.compile("([0-9A-Fa-f]{2})+");

    private UdpPayloadRules() {
    }

    static void check(List<Violation> out, UdpSpec udp) {
        if (!udp.hex()) {
            return;
        }
        hex(out, "udp.request", udp.request());
        hex(out, "udp.expectedResponse", udp.expectedResponse());
    }

    private static void hex(List<Violation> out, String field, String value) {
        if (value != null && !value.isEmpty() && value.length() <= TargetValidator.MAX_PAYLOAD_LENGTH
                && !HEX_BYTES.matcher(value).matches()) {
            String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
            out.add(Violation.of(field, "\"" + shown + "\"", "pairs of hex digits 0-9a-f, as udp.hex is true"));
        }
    }
}
