package io.healthmesh.haproxy;

import io.healthmesh.embedded.FreePorts;
import io.healthmesh.haproxy.plan.ActualServer;
import io.healthmesh.haproxy.runtime.RuntimeAddress;
import io.healthmesh.haproxy.runtime.RuntimeSession;
import io.healthmesh.haproxy.runtime.ServersStateTable;
import io.healthmesh.testkit.Await;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real HAProxy (Debian's {@code haproxy}) run as a child process in the foreground: a haproxy.cfg written to a
 * temporary directory with an admin stats socket there, one HTTP frontend on a free loopback port and the given
 * backends, empty. {@link #restart()} kills it and starts it again with the same config, as a crash and a
 * supervisor would (every runtime change is lost). Absent binary: skipped locally, failed in CI ({@code CI=true}),
 * where {@code .ci/run} installs it.
 */
final class LocalHaproxy implements AutoCloseable {

    private final Path binary;
    private final Path config;
    private final Path log;
    private final Path socket;
    private final int tcpSocketPort;
    private final int frontendPort;
    private Process process;

    private LocalHaproxy(Path binary, Path config, Path log, Path socket, int tcpSocketPort, int frontendPort) {
        this.binary = binary;
        this.config = config;
        this.log = log;
        this.socket = socket;
        this.tcpSocketPort = tcpSocketPort;
        this.frontendPort = frontendPort;
    }

    /** The binary, or a skipped (locally) / failed (CI) test. */
    static Path binary() {
        Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .flatMap(dir -> Stream.of(Path.of(dir, "haproxy"), Path.of("/usr/sbin", "haproxy")))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("haproxy is not installed; .ci/run installs it with apt-get");
        }
        Assumptions.assumeTrue(found.isPresent(), "haproxy not found (apt-get install haproxy); skipped");
        return found.get();
    }

    /** Starts HAProxy with a frontend sending to {@code frontendBackend} and the given empty backends. */
    static LocalHaproxy start(Path dir, String frontendBackend, String... backends) throws IOException {
        return start(dir, false, frontendBackend, backends);
    }

    /** The same, with {@code tcp} a second stats socket on a free loopback TCP port ({@link #tcpAddress()}). */
    static LocalHaproxy start(Path dir, boolean tcp, String frontendBackend, String... backends) throws IOException {
        Path socket = dir.resolve("admin.sock");
        int port = FreePorts.one();
        int tcpPort = tcp ? FreePorts.one() : 0;
        StringBuilder cfg = new StringBuilder("""
                global
                  stats socket %s mode 600 level admin
                  stats timeout 30s
                defaults
                  mode http
                  timeout connect 1s
                  timeout client 10s
                  timeout server 10s
                frontend fe
                  bind 127.0.0.1:%d
                  default_backend %s
                """.formatted(socket, port, frontendBackend));
        if (tcp) {
            // a global line: right after the first one
            cfg.insert(cfg.indexOf("\n") + 1, "  stats socket ipv4@127.0.0.1:" + tcpPort + " level admin\n");
        }
        for (String b : backends) {
            cfg.append("backend ").append(b).append("\n  balance roundrobin\n");
        }
        Path config = Files.writeString(dir.resolve("haproxy.cfg"), cfg.toString());
        LocalHaproxy haproxy = new LocalHaproxy(binary(), config, dir.resolve("haproxy.log"), socket, tcpPort,
                port);
        haproxy.launch();
        return haproxy;
    }

    private void launch() throws IOException {
        process = new ProcessBuilder(List.of(binary.toString(), "-db", "-f", config.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Await.until(Duration.ofSeconds(30), this::answers, () -> "haproxy does not answer on " + socket + ": " + log());
    }

    /** Kills HAProxy (SIGKILL) and starts it again with the same config. */
    void restart() throws IOException, InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        launch();
    }

    RuntimeAddress address() {
        return new RuntimeAddress(socket, null, 0);
    }

    /** The TCP stats socket (when started with one). */
    RuntimeAddress tcpAddress() {
        return new RuntimeAddress(null, "127.0.0.1", tcpSocketPort);
    }

    int frontendPort() {
        return frontendPort;
    }

    /** The servers of a backend as HAProxy holds them. */
    List<ActualServer> servers(String backend) {
        try (RuntimeSession s = RuntimeSession.open(address(), Duration.ofSeconds(5))) {
            return ServersStateTable.parse(s.command("show servers state " + backend)).orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("haproxy exited: " + log());
        }
        try (RuntimeSession s = RuntimeSession.open(address(), Duration.ofSeconds(2))) {
            return s.command("show info").contains("Name: HAProxy");
        } catch (IOException e) {
            return false;
        }
    }

    String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
