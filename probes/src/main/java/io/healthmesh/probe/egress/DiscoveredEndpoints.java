package io.healthmesh.probe.egress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster's endpoints learnt while running, denied like the configured ones whatever the allow list says: every
 * broker the cluster's metadata names, the named endpoints resolved again, and every address of this host's
 * interfaces (all ports: a probe at this host reaches the worker's own listeners and its neighbours'). Someone off
 * the probe path (the prober's refresher) {@linkplain #replace replaces} the whole set at once; the probe path
 * reads one volatile snapshot, without locks.
 */
public final class DiscoveredEndpoints {

    private static final Logger LOG = LoggerFactory.getLogger(DiscoveredEndpoints.class);

    private record Snapshot(Map<InetAddress, Set<Integer>> endpoints, Set<InetAddress> hostAddresses) {
    }

    private volatile Snapshot current = new Snapshot(Map.of(), Set.of());

    /**
     * Makes {@code endpoints} (address to its denied ports) and {@code hostAddresses} (every port denied) the
     * denied set, in place of the previous one.
     */
    public void replace(Map<InetAddress, Set<Integer>> endpoints, Set<InetAddress> hostAddresses) {
        Map<InetAddress, Set<Integer>> copy = new HashMap<>();
        endpoints.forEach((address, ports) -> copy.put(withoutScope(address), Set.copyOf(ports)));
        Set<InetAddress> hosts = new HashSet<>();
        hostAddresses.forEach(a -> hosts.add(withoutScope(a)));
        current = new Snapshot(Map.copyOf(copy), Set.copyOf(hosts));
    }

    /** How many addresses are denied now (endpoint addresses and host addresses). */
    public int size() {
        Snapshot s = current;
        return s.endpoints().size() + s.hostAddresses().size();
    }

    /** Why {@code form} port {@code port} is denied, or empty; {@code port} negative (ICMP) matches a host address. */
    Optional<String> check(InetAddress form, int port) {
        Snapshot s = current;
        if (s.hostAddresses().contains(form)) {
            return Optional.of(form.getHostAddress() + " is an address of this prober's host");
        }
        if (port >= 0) {
            Set<Integer> ports = s.endpoints().get(form);
            if (ports != null && ports.contains(port)) {
                return Optional.of(form.getHostAddress() + " port " + port
                        + " is an endpoint of this cluster (from its metadata)");
            }
        }
        return Optional.empty();
    }

    /** Every non-loopback address of this host's interfaces (loopback is the deny and allow lists' matter). */
    public static Set<InetAddress> hostAddresses() {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (!a.getAddress().isLoopbackAddress()) {
                        out.add(withoutScope(a.getAddress()));
                    }
                }
            }
        } catch (SocketException | RuntimeException e) {
            LOG.warn("cannot list this host's addresses: {}", e.toString());
        }
        return out;
    }

    static InetAddress withoutScope(InetAddress address) {
        try {
            return InetAddress.getByAddress(address.getAddress());
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
