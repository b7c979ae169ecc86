package io.healthmesh.probe.egress;

import io.healthmesh.core.net.HostAddresses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster's endpoints learnt while running, denied like the configured ones: every broker and controller the
 * cluster's metadata names, the named endpoints resolved again, the listeners the workers announce on the endpoints
 * topic (by address, or by name as written), every address of this host's interfaces (all ports: a probe at this
 * host reaches the worker's own listeners and its neighbours'), and every address of a broker's or controller's host
 * (all ports: its other listeners). Someone off the probe path (the prober's refresher) {@linkplain #replace
 * replaces} the whole set at once; the probe path reads one volatile snapshot, without locks.
 */
public final class DiscoveredEndpoints {

    private static final Logger LOG = LoggerFactory.getLogger(DiscoveredEndpoints.class);

    /**
     * One denied set.
     *
     * @param endpoints     addresses and their denied ports, from the metadata and the configured names
     * @param announced     addresses and their denied ports, announced by the workers
     * @param names         host names (lower case, no trailing dot) and their denied ports, matched as written
     * @param hostAddresses this host's addresses, every port denied
     * @param brokerHosts   the brokers' and controllers' hosts, every port denied unless the allow list opened the
     *                      address's deny block
     */
    public record Denied(Map<InetAddress, Set<Integer>> endpoints, Map<InetAddress, Set<Integer>> announced,
                         Map<String, Set<Integer>> names, Set<InetAddress> hostAddresses, Set<InetAddress> brokerHosts) {

        public static final Denied NONE = new Denied(Map.of(), Map.of(), Map.of(), Set.of(), Set.of());

        public Denied {
            endpoints = withoutScopes(endpoints);
            announced = withoutScopes(announced);
            Map<String, Set<Integer>> named = new HashMap<>();
            names.forEach((name, ports) -> named.merge(normalName(name), Set.copyOf(ports), DiscoveredEndpoints::union));
            names = Map.copyOf(named);
            hostAddresses = withoutScopes(hostAddresses);
            brokerHosts = withoutScopes(brokerHosts);
        }
    }

    private volatile Denied current = Denied.NONE;

    /**
     * Makes {@code endpoints} (address to its denied ports) and {@code hostAddresses} (every port denied) the
     * denied set, in place of the previous one.
     */
    public void replace(Map<InetAddress, Set<Integer>> endpoints, Set<InetAddress> hostAddresses) {
        replace(new Denied(endpoints, Map.of(), Map.of(), hostAddresses, Set.of()));
    }

    /** Makes {@code denied} the denied set, in place of the previous one. */
    public void replace(Denied denied) {
        current = denied;
    }

    /** The denied set now. */
    public Denied current() {
        return current;
    }

    /** How many addresses and names are denied now. */
    public int size() {
        Denied s = current;
        return s.endpoints().size() + s.announced().size() + s.names().size() + s.hostAddresses().size() + s.brokerHosts().size();
    }

    /** True when some broker's host is denied on every port (the policy then computes whether the allow list opened it). */
    boolean hasBrokerHosts() {
        return !current.brokerHosts().isEmpty();
    }

    /**
     * Why {@code form} port {@code port} is denied, or empty; {@code port} negative (ICMP) matches a host address.
     *
     * @param openedByAllowList whether an allow block opened the deny block holding {@code form}: a broker's host
     *                          is then denied only at the ports the metadata names (the demo's loopback backends
     *                          share the broker's host)
     */
    Optional<String> check(InetAddress form, int port, boolean openedByAllowList) {
        Denied s = current;
        if (s.hostAddresses().contains(form)) {
            return Optional.of(form.getHostAddress() + " is an address of this prober's host");
        }
        if (port >= 0) {
            Set<Integer> ports = s.endpoints().get(form);
            if (ports != null && ports.contains(port)) {
                return Optional.of(form.getHostAddress() + " port " + port
                        + " is an endpoint of this cluster (from its metadata)");
            }
            ports = s.announced().get(form);
            if (ports != null && ports.contains(port)) {
                return Optional.of(form.getHostAddress() + " port " + port
                        + " is an endpoint of this cluster (announced by a worker)");
            }
        }
        if (!openedByAllowList && s.brokerHosts().contains(form)) {
            return Optional.of(form.getHostAddress() + " is the host of a broker or controller of this cluster");
        }
        return Optional.empty();
    }

    /** Why the host name {@code host} as written, port {@code port}, is denied, or empty. */
    Optional<String> checkName(String host, int port) {
        Map<String, Set<Integer>> names = current.names();
        if (names.isEmpty() || port < 0) {
            return Optional.empty();
        }
        Set<Integer> ports = names.get(normalName(host));
        return ports != null && ports.contains(port)
                ? Optional.of(host + " port " + port + " is an endpoint of this cluster (announced by a worker)")
                : Optional.empty();
    }

    /** Every non-loopback address of this host's interfaces (loopback is the deny and allow lists' matter). */
    public static Set<InetAddress> hostAddresses() {
        try {
            return HostAddresses.nonLoopback();
        } catch (RuntimeException e) {
            LOG.warn("cannot list this host's addresses: {}", e.toString());
            return Set.of();
        }
    }

    static String normalName(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
        Set<Integer> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    private static Map<InetAddress, Set<Integer>> withoutScopes(Map<InetAddress, Set<Integer>> endpoints) {
        Map<InetAddress, Set<Integer>> copy = new HashMap<>();
        endpoints.forEach((address, ports) -> copy.merge(HostAddresses.withoutScope(address), Set.copyOf(ports),
                DiscoveredEndpoints::union));
        return Map.copyOf(copy);
    }

    private static Set<InetAddress> withoutScopes(Set<InetAddress> addresses) {
        Set<InetAddress> out = new HashSet<>();
        addresses.forEach(a -> out.add(HostAddresses.withoutScope(a)));
        return Set.copyOf(out);
    }
}
