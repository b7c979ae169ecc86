package io.healthmesh.testkit.farm;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How many listeners of each kind the farm opens. Every listener gets its own loopback address,
 * counted up from {@code firstAddress}, and an ephemeral port chosen at the first bind and kept
 * for every later re-bind (a target that comes back up answers on the same address and port).
 *
 * @param tcpListeners TCP accept servers, one target each
 * @param httpListeners HTTP servers
 * @param httpPathsPerListener targets per HTTP server, one path each ({@code /t/<n>})
 * @param udpListeners UDP echo servers, one target each
 * @param firstAddress the first loopback address handed out, e.g. {@code 127.1.0.1}
 */
public record FarmLayout(int tcpListeners, int httpListeners, int httpPathsPerListener, int udpListeners,
                         String firstAddress) {

    /** Listeners open at once, all kinds together: each is a file descriptor. */
    public static final int MAX_LISTENERS = 4_096;
    /** Paths on one HTTP server. */
    public static final int MAX_PATHS_PER_LISTENER = 1_000;
    /** The default first address: clear of 127.0.0.1, where the other services of a test run listen. */
    public static final String DEFAULT_FIRST_ADDRESS = "127.1.0.1";

    public FarmLayout {
        requireRange("tcpListeners", tcpListeners, 0, MAX_LISTENERS);
        requireRange("httpListeners", httpListeners, 0, MAX_LISTENERS);
        requireRange("httpPathsPerListener", httpPathsPerListener, 1, MAX_PATHS_PER_LISTENER);
        requireRange("udpListeners", udpListeners, 0, MAX_LISTENERS);
        int total = tcpListeners + httpListeners + udpListeners;
        if (total > MAX_LISTENERS) {
            throw new IllegalArgumentException("listeners: " + total + " (expected: 0.." + MAX_LISTENERS + ")");
        }
        long first = loopbackToLong(firstAddress);
        if (first + total - 1 > 0x7FFF_FFFEL) {
            throw new IllegalArgumentException("firstAddress: " + firstAddress + " (expected: room for "
                    + total + " loopback addresses below 127.255.255.255)");
        }
    }

    /** A layout with the default first address. */
    public static FarmLayout of(int tcpListeners, int httpListeners, int httpPathsPerListener, int udpListeners) {
        return new FarmLayout(tcpListeners, httpListeners, httpPathsPerListener, udpListeners, DEFAULT_FIRST_ADDRESS);
    }

    int listeners() {
        return tcpListeners + httpListeners + udpListeners;
    }

    /** The loopback address of listener number {@code index} (0-based), skipping .0 and .255 host bytes. */
    String addressOf(int index) {
        long address = loopbackToLong(firstAddress) + index;
        return ((address >> 24) & 0xff) + "." + ((address >> 16) & 0xff) + "." + ((address >> 8) & 0xff) + "."
                + (address & 0xff);
    }

    private static long loopbackToLong(String address) {
        InetAddress parsed;
        try {
            parsed = InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("firstAddress: " + address + " (expected: an IPv4 literal)", e);
        }
        if (!(parsed instanceof Inet4Address) || !parsed.isLoopbackAddress()) {
            throw new IllegalArgumentException("firstAddress: " + address + " (expected: in 127.0.0.0/8)");
        }
        byte[] b = parsed.getAddress();
        return ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
