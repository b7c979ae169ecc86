package io.healthmesh.probe.egress;

import io.netty.util.NetUtil;

import java.net.Inet6Address;
import java.net.InetAddress;

/** One address block such as {@code 169.254.0.0/16} or {@code fd00:ec2::/32}. */
public record Cidr(byte[] network, int prefixLength, String text) {

    static Cidr parse(String text) {
        return parse("denyList", text);
    }

    /** Parses one block; {@code field} names the setting in the error message. */
    public static Cidr parse(String field, String text) {
        if (text == null) {
            throw new IllegalArgumentException(field + ": null entry (expected: address/prefix such as 169.254.0.0/16)");
        }
        int slash = text.indexOf('/');
        byte[] address = slash < 0 ? null : NetUtil.createByteArrayFromIpAddressString(text.substring(0, slash));
        int prefix = -1;
        if (address != null) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
        }
        if (address == null || prefix < 0 || prefix > address.length * 8) {
            throw new IllegalArgumentException(field + ": '" + text
                    + "' (expected: address/prefix such as 169.254.0.0/16 or fd00:ec2::/32)");
        }
        return new Cidr(mask(address, prefix), prefix, text);
    }

    /** True when {@code address} lies in this block; an IPv4-mapped IPv6 address is checked as its IPv4 address. */
    boolean contains(InetAddress address) {
        return contains(address.getAddress(), address instanceof Inet6Address);
    }

    /**
     * {@link #contains(InetAddress)} on the address's bytes, read once by a caller that checks many blocks; compares
     * in place, without copying (the egress policy runs on every probe).
     */
    boolean contains(byte[] bytes, boolean ipv6) {
        int from = 0;
        int length = bytes.length;
        if (ipv6 && isIpv4Mapped(bytes)) {
            from = 12;
            length = 4;
        }
        if (length != network.length) {
            return false;
        }
        int whole = prefixLength / 8;
        for (int i = 0; i < whole; i++) {
            if (bytes[from + i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (bytes[from + whole] & mask) == (network[whole] & 0xff);
    }

    private static boolean isIpv4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    private static byte[] mask(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int bit = prefix; bit < out.length * 8; bit++) {
            out[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return out;
    }

    @Override
    public String toString() {
        return text;
    }
}
