package io.healthmesh.dnsfollow.mapping;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/** The address record types a mapping row may keep: {@code A} for IPv4 members, {@code AAAA} for IPv6 members. */
public enum RecordType {
    A,
    AAAA;

    /** The type whose records hold addresses of this family. */
    public static RecordType of(InetAddress address) {
        if (address instanceof Inet4Address) {
            return A;
        }
        if (address instanceof Inet6Address) {
            return AAAA;
        }
        throw new IllegalArgumentException("neither IPv4 nor IPv6: " + address);
    }
}
