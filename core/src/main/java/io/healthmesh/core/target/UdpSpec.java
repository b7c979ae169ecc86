package io.healthmesh.core.target;

/** UDP probe settings; request and expected response apply to {@link UdpMode#PAYLOAD}. */
public record UdpSpec(UdpMode mode, String request, String expectedResponse) {

    /** The settings used when a UDP definition has no {@code udp} section. */
    public static final UdpSpec DEFAULTS = new UdpSpec(UdpMode.PORT, null, null);
}
