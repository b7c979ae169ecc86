package io.healthmesh.core.target;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * UDP probe settings; request and expected response apply to {@link UdpMode#PAYLOAD} (and a request to PORT mode's
 * datagram).
 *
 * @param hex true when {@code request} and {@code expectedResponse} are hexadecimal digits (two per byte), for binary
 *            protocols such as DNS or QUIC; false for UTF-8 text
 * @param exactMatch true when the response must equal the expected bytes; false when it must contain them
 */
public record UdpSpec(UdpMode mode, String request, String expectedResponse, boolean hex, boolean exactMatch) {

    /** The settings used when a UDP definition has no {@code udp} section. */
    public static final UdpSpec DEFAULTS = new UdpSpec(UdpMode.PORT, null, null);

    /** Text payloads matched by containment (the shape before hex and exact matching existed). */
    public UdpSpec(UdpMode mode, String request, String expectedResponse) {
        this(mode, request, expectedResponse, false, false);
    }

    /** The request's bytes, or {@code null} when there is none; call on a validated spec only. */
    public byte[] requestBytes() {
        return bytes(request);
    }

    /** The expected response's bytes, or {@code null} when there is none; call on a validated spec only. */
    public byte[] expectedBytes() {
        return bytes(expectedResponse);
    }

    private byte[] bytes(String value) {
        if (value == null) {
            return null;
        }
        return hex ? HexFormat.of().parseHex(value) : value.getBytes(StandardCharsets.UTF_8);
    }
}
