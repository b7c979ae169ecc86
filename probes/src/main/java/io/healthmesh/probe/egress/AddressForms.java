package io.healthmesh.probe.egress;

import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The spellings under which one destination hides, so that the egress policy judges what a packet would reach:
 * an IPv6 address that carries an IPv4 address (IPv4-mapped, IPv4-compatible, SIIT, NAT64 {@code 64:ff9b::/96}
 * and {@code 64:ff9b:1::/48}, 6to4 {@code 2002::/16}, Teredo, ISATAP) yields that IPv4 address too, and a host
 * name written as a number ({@code 2130706433}, {@code 0x7f.1}, {@code 0177.0.0.1}, {@code 127.1}: the
 * {@code inet_aton} forms that the C library's resolver accepts) is read as the address it names.
 */
final class AddressForms {

    private AddressForms() {
    }

    /** {@code address} itself, then every IPv4 address embedded in it (none for an IPv4 address). */
    static List<InetAddress> of(InetAddress address) {
        List<InetAddress> forms = new ArrayList<>(3);
        forms.add(address);
        byte[] b = address.getAddress();
        if (b.length != 16) {
            return forms;
        }
        if (zero(b, 0, 10) && (b[10] == (byte) 0xff && b[11] == (byte) 0xff || b[10] == 0 && b[11] == 0 && b[12] != 0)) {
            // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible; not :: and ::1, which are themselves, not 0.0.0.x)
            forms.add(v4(b, 12, false));
        } else if (zero(b, 0, 8) && b[8] == (byte) 0xff && b[9] == (byte) 0xff && b[10] == 0 && b[11] == 0) {
            forms.add(v4(b, 12, false)); // ::ffff:0:a.b.c.d (SIIT)
        } else if (prefix(b, 0x00, 0x64, 0xff, 0x9b) && (zero(b, 4, 12) || b[4] == 0 && b[5] == 1)) {
            forms.add(v4(b, 12, false)); // NAT64 well-known and local-use prefixes
        } else if (prefix(b, 0x20, 0x02)) {
            forms.add(v4(b, 2, false)); // 6to4
        } else if (prefix(b, 0x20, 0x01, 0x00, 0x00)) {
            forms.add(v4(b, 4, false)); // Teredo server
            forms.add(v4(b, 12, true)); // Teredo client, stored inverted
        }
        if ((b[8] & ~0x02) == 0 && b[9] == 0 && b[10] == (byte) 0x5e && b[11] == (byte) 0xfe) {
            forms.add(v4(b, 12, false)); // ISATAP interface id
        }
        return forms;
    }

    /**
     * The address a host string names without any lookup: an IPv4 or IPv6 literal (brackets and a zone id
     * allowed) or a numeric {@code inet_aton} spelling, with one trailing dot allowed; empty for a real name.
     */
    static Optional<InetAddress> literal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        byte[] plain = dottedDecimal(host);
        if (plain != null) {
            try {
                return Optional.of(InetAddress.getByAddress(plain));
            } catch (UnknownHostException e) {
                throw new AssertionError("four bytes are an IPv4 address", e);
            }
        }
        return anySpelling(host);
    }

    /**
     * The common spelling {@code a.b.c.d}, each part 0 to 255 in decimal without a leading zero, read directly:
     * every probe of an address target asks, and Netty's general check took 1.3 % of a TCP prober's profile
     * samples. Anything else (a part with a leading zero, which the general parsers read as decimal in {@code 010}
     * and as octal in {@code 0177}; spaces; a trailing dot) gives {@code null} and is left to {@link #anySpelling},
     * which reads the plain spelling the same way ({@code AddressFormsTest} holds the two to each other).
     */
    static byte[] dottedDecimal(String host) {
        int length = host.length();
        if (length < 7 || length > 15) {
            return null;
        }
        byte[] address = new byte[4];
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i < length; i++) {
            char c = host.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digits == 1 && value == 0) {
                    return null;
                }
                value = value * 10 + (c - '0');
                if (value > 255) {
                    return null;
                }
                digits++;
            } else if (c == '.' && digits > 0 && part < 3) {
                address[part++] = (byte) value;
                value = 0;
                digits = 0;
            } else {
                return null;
            }
        }
        if (digits == 0 || part != 3) {
            return null;
        }
        address[3] = (byte) value;
        return address;
    }

    /** {@link #literal} for every spelling it accepts, by the general parsers. */
    static Optional<InetAddress> anySpelling(String host) {
        String h = host.trim();
        if (h.endsWith(".") && h.length() > 1) {
            h = h.substring(0, h.length() - 1);
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(h);
        if (bytes == null && h.indexOf(':') >= 0) {
            bytes = ipv6(h);
        }
        if (bytes == null) {
            bytes = inetAton(h);
        }
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /**
     * An IPv6 literal Netty's parser refuses but the JDK's reads, such as the IPv4-embedded {@code ::ffff:0:a.b.c.d}
     * (SIIT): a name with a colon is never a host name, so the JDK parses it as an address and never asks DNS.
     */
    private static byte[] ipv6(String text) {
        String h = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        int zone = h.indexOf('%');
        if (zone >= 0) {
            h = h.substring(0, zone);
        }
        if (h.isEmpty() || !h.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            return null;
        }
        try {
            return InetAddress.getByName(h).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The C library's reading of 1 to 4 dot-separated numbers, each decimal, octal (leading 0) or hex (0x). */
    static byte[] inetAton(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length < 1 || parts.length > 4) {
            return null;
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return null;
            }
            values[i] = value;
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            if (values[i] > 0xff) {
                return null;
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[parts.length - 1];
        if (last >= 1L << (8 * (4 - (parts.length - 1)))) {
            return null;
        }
        address |= last;
        return new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    }

    private static Long number(String part) {
        String p = part.toLowerCase(Locale.ROOT);
        int radix = 10;
        if (p.startsWith("0x")) {
            radix = 16;
            p = p.substring(2);
            if (p.isEmpty()) {
                return 0L;
            }
        } else if (p.length() > 1 && p.startsWith("0")) {
            radix = 8;
            p = p.substring(1);
        }
        if (p.isEmpty() || p.length() > 12) {
            return null;
        }
        for (int i = 0; i < p.length(); i++) {
            if (Character.digit(p.charAt(i), radix) < 0) {
                return null;
            }
        }
        long value = Long.parseLong(p, radix);
        return value > 0xffffffffL ? null : value;
    }

    private static InetAddress v4(byte[] b, int from, boolean inverted) {
        byte[] v4 = Arrays.copyOfRange(b, from, from + 4);
        if (inverted) {
            for (int i = 0; i < 4; i++) {
                v4[i] = (byte) ~v4[i];
            }
        }
        try {
            return InetAddress.getByAddress(v4);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean prefix(byte[] b, int... expected) {
        for (int i = 0; i < expected.length; i++) {
            if (b[i] != (byte) expected[i]) {
                return false;
            }
        }
        return true;
    }
}
