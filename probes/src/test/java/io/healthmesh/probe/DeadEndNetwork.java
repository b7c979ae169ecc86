package io.healthmesh.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An address with no host behind it, made only for the test: a network namespace joined to this one by a veth
 * pair; our side gets {@code 198.18.N.1/30} (RFC 2544 benchmark space, routed nowhere else), the peer side is up
 * but has no address, so {@code 198.18.N.2} never answers (its ARP requests go unanswered). Needs root and
 * {@code ip}; {@link #unavailableReason()} says why when it cannot be built. Removed on close.
 */
public final class DeadEndNetwork implements AutoCloseable {

    private final String namespace;
    private final String hostSide;
    private final InetAddress silentAddress;
    private final String unavailable;

    private DeadEndNetwork(String namespace, String hostSide, InetAddress silentAddress, String unavailable) {
        this.namespace = namespace;
        this.hostSide = hostSide;
        this.silentAddress = silentAddress;
        this.unavailable = unavailable;
    }

    public static DeadEndNetwork create() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            return unavailable("not running as root (user " + System.getProperty("user.name") + "): cannot create a network namespace");
        }
        String ip = List.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip").stream()
                .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
        if (ip == null) {
            return unavailable("the 'ip' command (iproute2) is not installed");
        }
        long id = ProcessHandle.current().pid() % 100_000;
        int subnet = (int) (id % 250) + 1;
        String ns = "hmp" + id;
        String v0 = "hmp" + id + "a";
        String v1 = "hmp" + id + "b";
        List<List<String>> steps = List.of(
                List.of(ip, "netns", "add", ns),
                List.of(ip, "link", "add", v0, "type", "veth", "peer", "name", v1),
                List.of(ip, "link", "set", v1, "netns", ns),
                List.of(ip, "addr", "add", "198.18." + subnet + ".1/30", "dev", v0),
                List.of(ip, "link", "set", v0, "up"),
                List.of(ip, "netns", "exec", ns, ip, "link", "set", v1, "up"));
        List<String> errors = new ArrayList<>();
        for (List<String> step : steps) {
            String error = run(step);
            if (error != null) {
                errors.add(error);
                run(List.of(ip, "link", "del", v0));
                run(List.of(ip, "netns", "del", ns));
                return unavailable("cannot build the test network: " + String.join("; ", errors));
            }
        }
        return new DeadEndNetwork(ns, v0, InetAddress.getByName("198.18." + subnet + ".2"), null);
    }

    private static DeadEndNetwork unavailable(String reason) {
        return new DeadEndNetwork(null, null, null, reason);
    }

    /** Null when the network exists. */
    public String unavailableReason() {
        return unavailable;
    }

    public InetAddress silentAddress() {
        return silentAddress;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes()).trim();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return String.join(" ", command) + ": timed out";
        }
        return process.exitValue() == 0 ? null : String.join(" ", command) + ": " + output;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (namespace != null) {
            run(List.of("ip", "link", "del", hostSide));
            run(List.of("ip", "netns", "del", namespace));
        }
    }
}
