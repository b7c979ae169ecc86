package io.healthmesh.probe.icmp;

import java.nio.charset.StandardCharsets;

/**
 * ICMP and ICMPv6 echo packets: building requests (with the Internet checksum, which raw IPv4 sockets need;
 * the kernel fills it for ping sockets and for ICMPv6) and reading replies and errors back into
 * (type, identifier, sequence). Pure byte work, tested without sockets.
 */
final class IcmpPackets {

    static final int ECHO_REQUEST_V4 = 8;
    static final int ECHO_REPLY_V4 = 0;
    static final int UNREACHABLE_V4 = 3;
    static final int TIME_EXCEEDED_V4 = 11;
    static final int ECHO_REQUEST_V6 = 128;
    static final int ECHO_REPLY_V6 = 129;
    static final int UNREACHABLE_V6 = 1;
    static final int TIME_EXCEEDED_V6 = 3;

    /** Echo payload: says who is pinging, for operators reading packet captures. 48 bytes, so a packet is 56. */
    static final byte[] PAYLOAD = pad("healthmesh-healthcheck icmp echo", 48);

    private static final int IPV6_HEADER = 40;

    private IcmpPackets() {
    }

    /** What a received packet says about one of our echoes; {@code kind} is REPLY or UNREACHABLE. */
    record Received(EchoResult.Status kind, int identifier, int sequence, String detail) {
    }

    static byte[] echoRequest(boolean ipv6, int identifier, int sequence) {
        byte[] packet = new byte[8 + PAYLOAD.length];
        packet[0] = (byte) (ipv6 ? ECHO_REQUEST_V6 : ECHO_REQUEST_V4);
        putShort(packet, 4, identifier);
        putShort(packet, 6, sequence);
        System.arraycopy(PAYLOAD, 0, packet, 8, PAYLOAD.length);
        if (!ipv6) {
            putShort(packet, 2, checksum(packet, 0, packet.length));
        }
        return packet;
    }

    /** RFC 1071 Internet checksum: one's complement of the one's complement sum of 16-bit words. */
    static int checksum(byte[] data, int offset, int length) {
        long sum = 0;
        int i = offset;
        for (; i + 1 < offset + length; i += 2) {
            sum += ((data[i] & 0xff) << 8) | (data[i + 1] & 0xff);
        }
        if (i < offset + length) {
            sum += (data[i] & 0xff) << 8;
        }
        while ((sum >> 16) != 0) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        return (int) (~sum & 0xffff);
    }

    /**
     * Reads a received packet. {@code withIpHeader}: raw IPv4 sockets deliver the IP header first; ping sockets
     * and ICMPv6 sockets do not. Returns null for anything that is not an echo reply or an error about an echo.
     */
    static Received parse(byte[] buf, int length, boolean ipv6, boolean withIpHeader) {
        int icmp = 0;
        if (withIpHeader) {
            if (length < 20) {
                return null;
            }
            icmp = (buf[0] & 0x0f) * 4;
        }
        if (length < icmp + 8) {
            return null;
        }
        int type = buf[icmp] & 0xff;
        int code = buf[icmp + 1] & 0xff;
        if (type == (ipv6 ? ECHO_REPLY_V6 : ECHO_REPLY_V4)) {
            return new Received(EchoResult.Status.REPLY, getShort(buf, icmp + 4), getShort(buf, icmp + 6), null);
        }
        boolean error = ipv6 ? type == UNREACHABLE_V6 || type == TIME_EXCEEDED_V6
                : type == UNREACHABLE_V4 || type == TIME_EXCEEDED_V4;
        if (!error) {
            return null;
        }
        // the error quotes the original packet: its IP header, then at least 8 bytes of our echo request
        int inner = icmp + 8;
        int innerIcmp;
        if (ipv6) {
            if (length < inner + IPV6_HEADER + 8 || (buf[inner + 6] & 0xff) != LibC.IPPROTO_ICMPV6) {
                return null;
            }
            innerIcmp = inner + IPV6_HEADER;
        } else {
            if (length < inner + 20) {
                return null;
            }
            innerIcmp = inner + (buf[inner] & 0x0f) * 4;
            if (length < innerIcmp + 8 || (buf[inner + 9] & 0xff) != LibC.IPPROTO_ICMP) {
                return null;
            }
        }
        if ((buf[innerIcmp] & 0xff) != (ipv6 ? ECHO_REQUEST_V6 : ECHO_REQUEST_V4)) {
            return null;
        }
        return new Received(EchoResult.Status.UNREACHABLE, getShort(buf, innerIcmp + 4), getShort(buf, innerIcmp + 6),
                describeError(ipv6, type, code));
    }

    static String describeError(boolean ipv6, int type, int code) {
        if (ipv6) {
            if (type == TIME_EXCEEDED_V6) {
                return "ICMPv6 time exceeded (code " + code + ")";
            }
            return switch (code) {
                case 0 -> "ICMPv6 no route to destination";
                case 1 -> "ICMPv6 administratively prohibited";
                case 3 -> "ICMPv6 address unreachable";
                case 4 -> "ICMPv6 port unreachable";
                default -> "ICMPv6 destination unreachable (code " + code + ")";
            };
        }
        if (type == TIME_EXCEEDED_V4) {
            return "ICMP time exceeded (code " + code + ")";
        }
        return switch (code) {
            case 0 -> "ICMP network unreachable";
            case 1 -> "ICMP host unreachable";
            case 3 -> "ICMP port unreachable";
            case 9, 10, 13 -> "ICMP administratively prohibited (code " + code + ")";
            default -> "ICMP destination unreachable (code " + code + ")";
        };
    }

    private static void putShort(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 8);
        b[at + 1] = (byte) value;
    }

    private static int getShort(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    private static byte[] pad(String text, int length) {
        byte[] out = new byte[length];
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, out, 0, Math.min(bytes.length, length));
        for (int i = bytes.length; i < length; i++) {
            out[i] = (byte) ('a' + (i - bytes.length) % 26);
        }
        return out;
    }
}
