package io.healthmesh.cli.demo;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.BindException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The demo's loopback backends and the targets that probe them:
 * <ul>
 *   <li>group {@code demo-web}: {@code web-home} (HTTP, always up) and {@code web-flaky} (HTTP, down for
 *       {@value #FLAKY_DOWN_S} s every {@value #FLAKY_UP_S} + {@value #FLAKY_DOWN_S} s: HEALTHY -> UNHEALTHY and back);</li>
 *   <li>group {@code demo-services}: {@code tcp-service} (TCP, always up) and {@code udp-echo} (UDP payload, always up);</li>
 *   <li>group {@code demo-fragile}: {@code fragile-http} and {@code fragile-tcp}, both down together for
 *       {@value #FRAGILE_DOWN_S} s every {@value #FRAGILE_UP_S} + {@value #FRAGILE_DOWN_S} s, so the group
 *       fails open.</li>
 *   <li>group {@code demo-profiles}: one target per product profile (docs/PROFILES.md), each at its product's
 *       defaults: {@code clb-web} (TENCENT_CLB, HTTP), {@code edgeone-tcp} (TENCENT_EDGEONE, TCP every 30 s, healthy
 *       after one success so that it shows within the first minute), {@code nlb-udp} (ALIBABA_NLB, UDP payload) and
 *       {@code ga-web} (ALIBABA_GA, HTTP GET expecting 200).</li>
 * </ul>
 * Ports are remembered in the data directory, so a restart on it probes the same addresses and the targets keep their
 * generation (and their state).
 */
public final class DemoBackends implements AutoCloseable {

    static final int FLAKY_UP_S = 20;
    static final int FLAKY_DOWN_S = 12;
    static final int FRAGILE_UP_S = 26;
    static final int FRAGILE_DOWN_S = 14;
    static final int INTERVAL_MS = 1_000;
    static final int TIMEOUT_MS = 500;
    static final int THRESHOLD = 2;
    static final String UDP_PAYLOAD = "healthmesh-demo";
    static final String PORTS_FILE = "demo-ports.properties";

    private final Deque<AutoCloseable> servers = new ArrayDeque<>();
    private final Map<String, Integer> ports;
    private final Switch flaky;
    private final Switch fragile;
    private final Switch up;

    private DemoBackends(Map<String, Integer> ports, Switch flaky, Switch fragile, Switch up) {
        this.ports = ports;
        this.flaky = flaky;
        this.fragile = fragile;
        this.up = up;
    }

    /**
     * Starts the backends on loopback; with {@code portsFile} the ports of the last run are reused when free and the
     * ports used are written back.
     */
    public static DemoBackends start(Clock clock, Path portsFile) throws IOException {
        Properties remembered = load(portsFile);
        Switch always = Switch.alwaysUp(clock);
        Switch flaky = new Switch(clock, Duration.ofSeconds(FLAKY_UP_S), Duration.ofSeconds(FLAKY_DOWN_S));
        Switch fragile = new Switch(clock, Duration.ofSeconds(FRAGILE_UP_S), Duration.ofSeconds(FRAGILE_DOWN_S));
        DemoBackends backends = new DemoBackends(new LinkedHashMap<>(), flaky, fragile, always);
        try {
            DemoHttpServer http = backends.keep(bindHttp(port(remembered, "http")));
            http.route("/", always).route("/flaky", flaky).route("/fragile", fragile);
            DemoTcpServer tcp = backends.keep(bindTcp(port(remembered, "tcp"), always));
            DemoTcpServer tcpFragile = backends.keep(bindTcp(port(remembered, "tcp.fragile"), fragile));
            DemoUdpEcho udp = backends.keep(bindUdp(port(remembered, "udp"), always));
            backends.ports.put("http", http.port());
            backends.ports.put("tcp", tcp.port());
            backends.ports.put("tcp.fragile", tcpFragile.port());
            backends.ports.put("udp", udp.port());
        } catch (IOException | RuntimeException e) {
            backends.close();
            throw e;
        }
        if (portsFile != null) {
            Properties used = new Properties();
            backends.ports.forEach((k, v) -> used.setProperty(k, Integer.toString(v)));
            try (Writer w = Files.newBufferedWriter(portsFile, StandardCharsets.UTF_8)) {
                used.store(w, "ports of the demo backends; reused by the next demo run on this data directory");
            }
        }
        return backends;
    }

    /** The targets, with the demo's short timing so that changes show within seconds. */
    public List<TargetSpec> targets() {
        int http = ports.get("http");
        return List.of(
                spec("web-home", "demo-web", http, Protocol.HTTP).withHttp(httpGet("/")),
                spec("web-flaky", "demo-web", http, Protocol.HTTP).withHttp(httpGet("/flaky")),
                spec("tcp-service", "demo-services", ports.get("tcp"), Protocol.TCP),
                spec("udp-echo", "demo-services", ports.get("udp"), Protocol.UDP)
                        .withUdp(new UdpSpec(UdpMode.PAYLOAD, UDP_PAYLOAD, UDP_PAYLOAD)),
                spec("fragile-http", "demo-fragile", http, Protocol.HTTP).withHttp(httpGet("/fragile")),
                spec("fragile-tcp", "demo-fragile", ports.get("tcp.fragile"), Protocol.TCP),
                profiled("clb-web", TargetProfile.TENCENT_CLB, http, Protocol.HTTP),
                profiled("edgeone-tcp", TargetProfile.TENCENT_EDGEONE, ports.get("tcp"), Protocol.TCP)
                        .withThresholds(1, 2),
                profiled("nlb-udp", TargetProfile.ALIBABA_NLB, ports.get("udp"), Protocol.UDP)
                        .withUdp(new UdpSpec(UdpMode.PAYLOAD, UDP_PAYLOAD, UDP_PAYLOAD)),
                profiled("ga-web", TargetProfile.ALIBABA_GA, http, Protocol.HTTP));
    }

    /** A target of {@code profile} with every field at that product's defaults. */
    private static TargetSpec profiled(String id, TargetProfile profile, int port, Protocol protocol) {
        return ProfileTable.of(profile).newSpec(id, "demo-profiles", "127.0.0.1", port, protocol);
    }

    /** One line per target for the banner: what it probes and when it fails. */
    public List<String> describe() {
        return targets().stream().map(t -> String.format("  %-13s %-5s 127.0.0.1:%-5d %-9s group %-14s %s",
                t.id(), t.protocol(), t.port(), t.protocol().usesHttpSection() ? t.http().path() : "",
                t.group(), schedule(t.id()))).toList();
    }

    private String schedule(String id) {
        return switch (id) {
            case "web-flaky" -> flaky.describe() + " (503 while down)";
            case "fragile-http", "fragile-tcp" -> fragile.describe() + ", together: the group fails open";
            case "clb-web" -> "TENCENT_CLB defaults: every 5 s, DETECTING 5 s x 3";
            case "edgeone-tcp" -> "TENCENT_EDGEONE defaults: every 30 s, fixed delay";
            case "nlb-udp" -> "ALIBABA_NLB: payload mode";
            case "ga-web" -> "ALIBABA_GA defaults: GET, 200 only, every 2 s, timeout 3 s";
            default -> up.describe();
        };
    }

    private static TargetSpec spec(String id, String group, int port, Protocol protocol) {
        return TargetSpec.of(id, group, "127.0.0.1", port, protocol)
                .withTiming(INTERVAL_MS, TIMEOUT_MS).withThresholds(THRESHOLD, THRESHOLD);
    }

    private static HttpSpec httpGet(String path) {
        return new HttpSpec(HttpMethod.GET, path, null, List.of("2xx"), false, Map.of(), null, false);
    }

    private <T extends AutoCloseable> T keep(T server) {
        servers.push(server);
        return server;
    }

    private static int port(Properties remembered, String key) {
        String value = remembered.getProperty(key);
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Binds the remembered port, or a free one when it is taken. */
    private static DemoHttpServer bindHttp(int port) throws IOException {
        try {
            return DemoHttpServer.start(port);
        } catch (BindException e) {
            return DemoHttpServer.start(0);
        }
    }

    private static DemoTcpServer bindTcp(int port, Switch state) throws IOException {
        try {
            return DemoTcpServer.start(port, state);
        } catch (BindException e) {
            return DemoTcpServer.start(0, state);
        }
    }

    private static DemoUdpEcho bindUdp(int port, Switch state) throws IOException {
        try {
            return DemoUdpEcho.start(port, state);
        } catch (SocketException e) {
            return DemoUdpEcho.start(0, state);
        }
    }

    private static Properties load(Path file) {
        Properties props = new Properties();
        if (file != null && Files.isRegularFile(file)) {
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return props;
    }

    @Override
    public void close() {
        while (!servers.isEmpty()) {
            try {
                servers.pop().close();
            } catch (Exception e) {
                // a demo backend that fails to close must not keep the others open
            }
        }
    }
}
