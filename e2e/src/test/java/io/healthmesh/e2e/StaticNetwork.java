package io.healthmesh.e2e;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Network.Ipam;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A private bridge network with a subnet of its own, so that every container gets a fixed address. A backend
 * that is stopped and started again keeps its address, and targets are defined by address: no DNS is involved
 * (a stopped container's name would otherwise be looked up outside the machine, and the JVM caches lookups).
 */
final class StaticNetwork implements Network {

    private static final Logger LOG = LoggerFactory.getLogger(StaticNetwork.class);
    private static final int ATTEMPTS = 16;

    private final String id;
    private final String name;
    private final String prefix;

    private StaticNetwork(String id, String name, String prefix) {
        this.id = id;
        this.name = name;
        this.prefix = prefix;
    }

    /** Creates the network on a {@code 172.30.N.0/24} that no other Docker network uses. */
    static StaticNetwork create() {
        DockerClient client = DockerClientFactory.instance().client();
        Set<String> used = new HashSet<>();
        client.listNetworksCmd().exec().forEach(n -> {
            if (n.getIpam() != null && n.getIpam().getConfig() != null) {
                n.getIpam().getConfig().forEach(c -> used.add(Objects.toString(c.getSubnet(), "")));
            }
        });
        int start = ThreadLocalRandom.current().nextInt(256);
        DockerException last = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            String prefix = "172.30." + ((start + i) % 256) + ".";
            String subnet = prefix + "0/24";
            if (used.stream().anyMatch(other -> overlaps(subnet, other))) {
                continue;
            }
            String name = "healthmesh-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            try {
                String id = client.createNetworkCmd().withName(name).withDriver("bridge").withCheckDuplicate(true)
                        .withIpam(new Ipam().withConfig(new Ipam.Config().withSubnet(subnet).withGateway(prefix + "1")))
                        .exec().getId();
                LOG.info("network {} on {}", name, subnet);
                return new StaticNetwork(id, name, prefix);
            } catch (DockerException e) {
                // another network took the subnet in the meantime: try the next one
                last = e;
            }
        }
        throw new IllegalStateException("no free 172.30.N.0/24 subnet for the test network", last);
    }

    /** Whether two IPv4 CIDR blocks share an address (anything that is not IPv4 CIDR never overlaps). */
    static boolean overlaps(String a, String b) {
        long[] x = range(a);
        long[] y = range(b);
        return x != null && y != null && x[0] <= y[1] && y[0] <= x[1];
    }

    /** First and last address of an IPv4 CIDR block, or null. */
    private static long[] range(String cidr) {
        String[] parts = cidr.split("/");
        String[] octets = parts[0].split("\\.");
        if (parts.length != 2 || octets.length != 4) {
            return null;
        }
        try {
            long ip = 0;
            for (String o : octets) {
                ip = (ip << 8) | Integer.parseInt(o);
            }
            int bits = Integer.parseInt(parts[1]);
            long size = 1L << (32 - bits);
            long first = ip & ~(size - 1) & 0xFFFFFFFFL;
            return new long[] {first, first + size - 1};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The address {@code host} (2..254) of this network. */
    String address(int host) {
        if (host < 2 || host > 254) {
            throw new IllegalArgumentException("host: " + host + " (expected: 2..254)");
        }
        return prefix + host;
    }

    /** The bridge's own address on this network: where the Docker host answers the containers. */
    String gateway() {
        return prefix + "1";
    }

    String name() {
        return name;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public void close() {
        try {
            DockerClientFactory.instance().client().removeNetworkCmd(id).exec();
        } catch (DockerException e) {
            LOG.warn("network {} not removed: {}", name, e.getMessage());
        }
    }
}
