package io.healthmesh.bench.peers;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.core.target.Protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Prometheus blackbox_exporter from its Debian package, on a generated config with a {@code tcp_connect} and an
 * {@code http_2xx} module (HEAD, IPv4, the same timeout as healthmesh's probes), listening on a free loopback port.
 * Each {@code /probe} request is one probe, which is how Prometheus drives it.
 */
public final class BlackboxPeer implements AutoCloseable {

    /** {@code prometheus-blackbox-exporter} from the Debian package. */
    public static final Path DEFAULT_BINARY = Path.of("/usr/bin/prometheus-blackbox-exporter");

    private final PeerProcess process;
    private final String base;

    private BlackboxPeer(PeerProcess process, String base) {
        this.process = process;
        this.base = base;
    }

    /** Writes the config into {@code workDir}, starts the exporter and waits (at most 15 s) until it answers. */
    public static BlackboxPeer start(Path binary, Path workDir, int timeoutMs)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path config = workDir.resolve("blackbox.yml");
        Files.writeString(config, config(timeoutMs));
        int port;
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            port = probe.getLocalPort();
        }
        String listen = "127.0.0.1:" + port;
        PeerProcess process = PeerProcess.start(List.of(binary.toString(), "--config.file=" + config,
                "--web.listen-address=" + listen, "--log.level=warn"), workDir, line -> { });
        BlackboxPeer peer = new BlackboxPeer(process, "http://" + listen);
        try {
            peer.awaitHealthy(Duration.ofSeconds(15));
        } catch (IOException | InterruptedException | RuntimeException e) {
            peer.close();
            throw e;
        }
        return peer;
    }

    static String config(int timeoutMs) {
        String timeout = timeoutMs + "ms";
        return "modules:\n"
                + "  tcp_connect:\n    prober: tcp\n    timeout: " + timeout + "\n"
                + "    tcp:\n      preferred_ip_protocol: ip4\n      ip_protocol_fallback: false\n"
                + "  http_2xx:\n    prober: http\n    timeout: " + timeout + "\n"
                + "    http:\n      method: HEAD\n      preferred_ip_protocol: ip4\n"
                + "      ip_protocol_fallback: false\n";
    }

    private void awaitHealthy(Duration within) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + within.toNanos();
        IOException last = null;
        for (int attempt = 0; attempt < 300 && System.nanoTime() < deadline; attempt++) {
            if (!process.isAlive()) {
                throw new IOException("blackbox_exporter exited at start; is its config valid?");
            }
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(base + "/-/healthy"))
                        .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new IOException("blackbox_exporter did not answer within " + within, last);
    }

    /** The scrape that probes {@code target} once. */
    public URI probeUri(FarmTarget target) {
        return switch (target.protocol()) {
            case TCP -> URI.create(base + "/probe?module=tcp_connect&target=" + target.address() + ":" + target.port());
            case HTTP -> URI.create(base + "/probe?module=http_2xx&target=http://" + target.endpoint());
            default -> throw new IllegalArgumentException("protocol: " + target.protocol()
                    + " (expected: " + Protocol.TCP + " or " + Protocol.HTTP + ")");
        };
    }

    public long pid() {
        return process.pid();
    }

    /** The exporter's CPU time so far. */
    public long cpuNanos() {
        return process.cpuNanos();
    }

    @Override
    public void close() {
        process.close();
    }
}
