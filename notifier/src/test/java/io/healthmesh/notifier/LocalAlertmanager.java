package io.healthmesh.notifier;

import io.healthmesh.testkit.Await;
import io.healthmesh.embedded.FreePorts;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus Alertmanager (Debian's {@code prometheus-alertmanager}) started on loopback with a temporary
 * config and data directory, clustering off. Absent binary: the test is skipped on a developer machine, and fails
 * in CI ({@code CI=true}), where {@code .ci/run} installs it.
 */
final class LocalAlertmanager implements AutoCloseable {

    private static final List<String> NAMES = List.of("prometheus-alertmanager", "alertmanager");

    private final Process process;
    private final int port;
    private final Path log;

    private LocalAlertmanager(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The binary, or a skipped (locally) / failed (CI) test. */
    static Path binary() {
        Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .flatMap(dir -> NAMES.stream().map(n -> Path.of(dir, n)))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("prometheus-alertmanager is not installed; .ci/run installs it with apt-get");
        }
        Assumptions.assumeTrue(found.isPresent(),
                "prometheus-alertmanager not found on PATH (apt-get install prometheus-alertmanager); skipped");
        return found.get();
    }

    /** Starts it with a route that sends every alert to {@code webhookUrl} and waits until it is ready. */
    static LocalAlertmanager start(Path dir, String webhookUrl) throws IOException, InterruptedException {
        Path binary = binary();
        Path config = Files.writeString(dir.resolve("alertmanager.yml"), """
                route:
                  receiver: test
                  group_by: [alertname, group, target]
                  group_wait: 1s
                  group_interval: 1s
                  repeat_interval: 1h
                receivers:
                  - name: test
                    webhook_configs:
                      - url: '%s'
                        send_resolved: true
                """.formatted(webhookUrl));
        Path data = Files.createDirectories(dir.resolve("alertmanager-data"));
        Path log = dir.resolve("alertmanager.log");
        int port = FreePorts.one();
        Process process = new ProcessBuilder(List.of(binary.toString(), "--config.file=" + config,
                "--storage.path=" + data, "--web.listen-address=127.0.0.1:" + port, "--cluster.listen-address="))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LocalAlertmanager am = new LocalAlertmanager(process, port, log);
        HttpClient http = HttpClient.newHttpClient();
        try {
            Await.until(Duration.ofSeconds(30), () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("alertmanager exited: " + am.output());
                }
                return ready(http, am);
            }, () -> "alertmanager ready: " + am.output());
            return am;
        } catch (RuntimeException | AssertionError e) {
            am.close();
            throw e;
        }
    }

    private static boolean ready(HttpClient http, LocalAlertmanager am) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(am.url() + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
