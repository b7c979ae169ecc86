package io.healthmesh.core.net;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * This host's own addresses: what a prober denies on every port (a probe there reaches this host's listeners) and
 * what a worker bound to a wildcard address announces (where the other hosts reach it). Loopback is left out: it is
 * the egress deny and allow lists' matter, and another host cannot reach this one's loopback.
 */
public final class HostAddresses {

    private HostAddresses() {
    }

    /**
     * Every non-loopback address of this host's interfaces, without IPv6 scope ids.
     *
     * @throws UncheckedIOException when the interfaces cannot be listed
     */
    public static Set<InetAddress> nonLoopback() {
        Set<InetAddress> out = new LinkedHashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (!a.getAddress().isLoopbackAddress()) {
                        out.add(withoutScope(a.getAddress()));
                    }
                }
            }
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** {@code address} without its IPv6 scope id, so that equal addresses compare equal. */
    public static InetAddress withoutScope(InetAddress address) {
        try {
            return InetAddress.getByAddress(address.getAddress());
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
