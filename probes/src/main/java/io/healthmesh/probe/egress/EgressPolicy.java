package io.healthmesh.probe.egress;

import io.netty.util.NetUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where probes may go (BEHAVIOUR.md section 9): whoever can write the targets topic must not turn probers into a proxy
 * into the network. A destination is refused ({@code BLOCKED_BY_POLICY}, no packet sent) when
 * <ul>
 *   <li>it, or an IPv4 address embedded in it ({@link AddressForms}), lies in a deny block and no allow block at
 *       least as specific holds it: the most specific block decides, an allow block as specific as a deny block
 *       wins, so {@code allow.list=127.0.0.0/8} opens loopback while a deny {@code 127.0.0.2/32} still holds; or</li>
 *   <li>it is one of the cluster's own endpoints (address and port: the Kafka bootstrap servers, the schema
 *       registry, the worker's own HTTP ports, and what {@link DiscoveredEndpoints} learns while running: the
 *       brokers and controllers of the cluster's metadata, the listeners the workers announce and this host's own
 *       addresses), whatever the allow list says. An endpoint bound to a wildcard address stands for that port on
 *       every address of this host; or</li>
 *   <li>it is an address of a broker's or controller's host, on any port, unless an allow block opened the deny
 *       block that holds it (then only the listed ports of that host are denied).</li>
 * </ul>
 * The check runs on the host as written, before any lookup (so that {@code 0x7f.1} or {@code [::ffff:7f00:1]}
 * is refused without a DNS query), and again on the resolved address; the prober then connects to exactly the
 * address that was checked. Immutable and thread-safe.
 */
public final class EgressPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(EgressPolicy.class);

    /**
     * One denied endpoint: an address, or a name that did not resolve at start (matched on the host as written),
     * or, with neither, every address of this host.
     */
    record Endpoint(InetAddress address, String name, int port, String spelling) {

        Endpoint(InetAddress address, int port, String spelling) {
            this(address, null, port, spelling);
        }
    }

    private final List<Cidr> deny;
    private final List<Cidr> allow;
    private final List<Endpoint> endpoints;
    private final Set<InetAddress> localAddresses;
    private final boolean wildcard;
    private final boolean hasNamedEndpoints;
    private final DiscoveredEndpoints discovered;

    EgressPolicy(List<String> denyList, List<String> allowList, List<Endpoint> endpoints) {
        this(denyList, allowList, endpoints, new DiscoveredEndpoints());
    }

    EgressPolicy(List<String> denyList, List<String> allowList, List<Endpoint> endpoints,
                 DiscoveredEndpoints discovered) {
        this.discovered = discovered;
        this.deny = denyList.stream().map(c -> Cidr.parse("denyList", c)).toList();
        this.allow = allowList.stream().map(c -> Cidr.parse("allowList", c)).toList();
        this.endpoints = List.copyOf(endpoints);
        this.wildcard = endpoints.stream().anyMatch(e -> e.address() == null && e.name() == null);
        this.localAddresses = wildcard ? localAddresses() : Set.of();
        this.hasNamedEndpoints = endpoints.stream().anyMatch(e -> e.name() != null);
    }

    /** The endpoints learnt while running, denied with the configured ones; replaced by the prober's refresher. */
    DiscoveredEndpoints discovered() {
        return discovered;
    }

    /** A policy of deny and allow blocks only. */
    static EgressPolicy of(List<String> denyList, List<String> allowList) {
        return new EgressPolicy(denyList, allowList, List.of());
    }

    /**
     * Resolves {@code host:port} endpoint spellings ({@code [v6]:port} for IPv6) now, each to every address its name
     * has. A name that does not resolve is logged and skipped: the probe-time check cannot reach what nothing names.
     *
     * @throws IllegalArgumentException for a spelling that is not {@code host:port}
     */
    static List<Endpoint> resolve(List<String> spellings) {
        List<Endpoint> out = new ArrayList<>();
        for (String spelling : spellings) {
            HostPort hp = HostPort.parse(spelling);
            if (hp.host().isEmpty() || hp.host().equals("*")) {
                out.add(new Endpoint(null, hp.port(), spelling));
                continue;
            }
            Optional<InetAddress> literal = AddressForms.literal(hp.host());
            if (literal.isPresent()) {
                out.add(new Endpoint(literal.get().isAnyLocalAddress() ? null : literal.get(), hp.port(), spelling));
                continue;
            }
            try {
                for (InetAddress address : InetAddress.getAllByName(hp.host())) {
                    out.add(new Endpoint(address, hp.port(), spelling));
                }
            } catch (UnknownHostException e) {
                LOG.warn("cluster endpoint {} does not resolve now; denied by name only", spelling);
                out.add(new Endpoint(null, hp.host(), hp.port(), spelling));
            }
        }
        return out;
    }

    /** The denial of {@code host} as written (a literal or numeric spelling), before any lookup; empty for a name. */
    Optional<String> checkHost(String host, int port) {
        return checkHost(host, AddressForms.literal(host).orElse(null), port);
    }

    /**
     * {@link #checkHost(String, int)} with the host's literal reading ({@link AddressForms#literal}) already made,
     * or {@code null} when {@code host} is a name: a probe parses its host once.
     */
    Optional<String> checkHost(String host, InetAddress literal, int port) {
        if (hasNamedEndpoints) {
            String name = normalName(host);
            for (Endpoint endpoint : endpoints) {
                if (endpoint.name() != null && endpoint.port() == port && name.equals(normalName(endpoint.name()))) {
                    return Optional.of(host + " port " + port + " is an endpoint of this cluster ("
                            + endpoint.spelling() + ")");
                }
            }
        }
        if (literal == null) {
            return discovered.checkName(host, port);
        }
        return check(literal, port).map(reason -> host.equals(literal.getHostAddress()) ? reason : host + " names " + reason);
    }

    /**
     * Why {@code address} must not be probed, or empty when it may. Runs on every probe, so an allowed address
     * costs no text: the reason is written only for a denial.
     *
     * @param port the destination port, or a negative number when there is none (ICMP)
     */
    Optional<String> check(InetAddress address, int port) {
        List<InetAddress> forms = AddressForms.of(address);
        for (InetAddress form : forms) {
            Cidr denied = deniedBlock(form);
            if (denied != null) {
                return Optional.of(shown(address, form) + " is in denied range " + denied);
            }
            if (port >= 0) {
                for (Endpoint endpoint : endpoints) {
                    if (endpoint.port() == port && reaches(endpoint, form)) {
                        return Optional.of(shown(address, form) + " port " + port + " is an endpoint of this cluster ("
                                + endpoint.spelling() + ")");
                    }
                }
            }
            Optional<String> learnt = discovered.check(form, port,
                    discovered.hasBrokerHosts() && openedByAllowList(form));
            if (learnt.isPresent()) {
                return learnt;
            }
        }
        return Optional.empty();
    }

    private static String shown(InetAddress address, InetAddress form) {
        String shown = address.getHostAddress();
        return form.equals(address) ? shown : shown + " (embedding " + form.getHostAddress() + ")";
    }

    /**
     * True when a deny block holds {@code form} and an allow block at least as specific opens it: where the operator
     * chose to reach (loopback for the demo's backends), a broker's host is denied only at its listed ports.
     */
    private boolean openedByAllowList(InetAddress form) {
        byte[] bytes = form.getAddress();
        boolean ipv6 = form instanceof Inet6Address;
        return mostSpecific(deny, bytes, ipv6) != null && deniedBlock(form) == null;
    }

    /** The deny block that holds {@code form} with no allow block at least as specific, or {@code null}. */
    private Cidr deniedBlock(InetAddress form) {
        byte[] bytes = form.getAddress();
        boolean ipv6 = form instanceof Inet6Address;
        Cidr denied = mostSpecific(deny, bytes, ipv6);
        if (denied == null) {
            return null;
        }
        Cidr allowed = mostSpecific(allow, bytes, ipv6);
        return allowed != null && allowed.prefixLength() >= denied.prefixLength() ? null : denied;
    }

    private static Cidr mostSpecific(List<Cidr> blocks, byte[] address, boolean ipv6) {
        Cidr best = null;
        for (Cidr block : blocks) {
            if (block.contains(address, ipv6) && (best == null || block.prefixLength() > best.prefixLength())) {
                best = block;
            }
        }
        return best;
    }

    private static String normalName(String host) {
        String h = host.trim().toLowerCase(java.util.Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private boolean reaches(Endpoint endpoint, InetAddress form) {
        if (endpoint.address() != null) {
            return endpoint.address().equals(form);
        }
        if (endpoint.name() != null) {
            return false; // matched on the host as written, in checkHost
        }
        return form.isLoopbackAddress() || form.isAnyLocalAddress() || localAddresses.contains(form);
    }

    /** Every address of every interface of this host, with each interface's broadcast address. */
    private static Set<InetAddress> localAddresses() {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    out.add(withoutScope(a.getAddress()));
                    if (a.getBroadcast() != null) {
                        out.add(a.getBroadcast());
                    }
                }
            }
        } catch (SocketException | RuntimeException e) {
            LOG.warn("cannot list this host's addresses: {}", e.toString());
        }
        return Set.copyOf(out);
    }

    private static InetAddress withoutScope(InetAddress address) {
        try {
            return InetAddress.getByAddress(address.getAddress());
        } catch (UnknownHostException e) {
            return address;
        }
    }

    /** {@code host:port} or {@code [v6]:port}. */
    public record HostPort(String host, int port) {

        public static HostPort parse(String spelling) {
            String s = spelling == null ? "" : spelling.trim();
            int colon = s.lastIndexOf(':');
            String host = colon < 0 ? s : s.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.indexOf(':') >= 0 && !NetUtil.isValidIpV6Address(host)) {
                colon = -1;
            }
            int port = -1;
            if (colon > 0) {
                try {
                    port = Integer.parseInt(s.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
            }
            if (colon < 0 || port < 0 || port > 65_535 || host.indexOf(':') >= 0 && !s.startsWith("[")) {
                throw new IllegalArgumentException("deniedEndpoints: '" + spelling
                        + "' (expected: host:port or [IPv6]:port such as kafka-1:9092)");
            }
            return new HostPort(host, port);
        }
    }
}
