package io.healthmesh.cli.probe;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.healthmesh.cli.CliRun;
import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import io.healthmesh.testkit.TinyDnsServer;
import io.healthmesh.testkit.grpc.LoopbackBackends;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code healthmesh probe} against real servers on loopback: every protocol's steps, facts and verdict, the exit codes
 * (0 success, 1 failed check, 2 bad input), the prober's egress policy and the one target reader.
 */
class ProbeCommandTest {

    private static final String LOOPBACK = "127.0.0.0/8";
    /** A check's timing generous enough for a saturated build machine (a stalled loop makes a probe INCONCLUSIVE). */
    private static final String[] PATIENT = {"--timeout-ms", "10000", "--set", "intervalMs=30000"};

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** {@code healthmesh probe ARGS} with the {@link #PATIENT} timing. */
    private static CliRun patiently(String... args) {
        List<String> all = new ArrayList<>(List.of("probe"));
        all.addAll(List.of(args));
        all.addAll(List.of(PATIENT));
        return CliRun.of(all.toArray(String[]::new));
    }

    private HttpServer http(int status, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        serve(server, status, body);
        return server;
    }

    private void serve(HttpServer server, int status, String body) {
        server.createContext("/", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, "HEAD".equals(exchange.getRequestMethod()) ? -1 : bytes.length);
            if (!"HEAD".equals(exchange.getRequestMethod())) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
            exchange.close();
        });
        server.start();
        open.add(() -> server.stop(0));
    }

    @Test
    void anHttpTargetOfAFileIsProbedStepByStepWithItsBodyAndVerdict() throws Exception {
        HttpServer server = http(200, "{\"status\": \"ok\"}\nsecond line");
        Path file = dir.resolve("targets.yaml");
        Files.writeString(file, """
                - id: web-1
                  address: 127.0.0.1
                  port: %d
                  protocol: HTTP
                  intervalMs: 30000
                  timeoutMs: 10000
                  http: {method: GET, path: /healthz}
                - id: web-2
                  address: 127.0.0.1
                  port: 9
                  protocol: TCP
                """.formatted(server.getAddress().getPort()));

        CliRun run = CliRun.of("probe", "-f", file.toString(), "--id", "web-1", "--allow", LOOPBACK);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("target web-1 (group default): HTTP 127.0.0.1:" + server.getAddress().getPort()
                        + ", GET /healthz, timeout 10000 ms")
                .contains("allowed [127.0.0.0/8]")
                .containsPattern("\\d+\\.\\d{3} ms  connecting  \\(")
                .doesNotContain("next hop")
                .contains("connected", "awaiting response", "first response byte", "status 200", "verdict SUCCESS")
                .contains("body: {\"status\": \"ok\"}\\nsecond line")
                .containsPattern("timings: connect \\d+\\.\\d{3} ms, first byte \\d+\\.\\d{3} ms, status 200, total")
                .contains("verdict: SUCCESS: status 200");
    }

    @Test
    void aGrpcTargetIsAskedForItsHealthAndServing() {
        LoopbackBackends grpc = new LoopbackBackends(1);
        open.add(grpc::close);

        CliRun run = patiently("--protocol", "GRPC", "--address", "127.0.0.1", "--port",
                Integer.toString(grpc.port(0)), "--allow", LOOPBACK);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("connected", "verdict: SUCCESS");
    }

    @Test
    void aDnsTargetWithAConditionOnItsAnswersShowsTheConditionAndFailsWhenItIsFalse() throws Exception {
        TinyDnsServer dns = new TinyDnsServer(60);
        open.add(dns::close);
        dns.add("www.example.test", "192.0.2.10");
        Path file = dir.resolve("dns.yaml");
        Files.writeString(file, """
                - id: ns-1
                  address: %s
                  port: %d
                  protocol: DNS
                  timeoutMs: 5000
                  dns: {name: www.example.test, type: A}
                  condition: dns.answers.exists(a, a == "192.0.2.11")
                - id: ns-2
                  address: %s
                  port: %d
                  protocol: DNS
                  timeoutMs: 5000
                  dns: {name: www.example.test, type: A}
                  condition: dns.rcode == "NOERROR" && size(dns.answers) == 1
                """.formatted("127.0.0.1", dns.port(), "127.0.0.1", dns.port()));

        CliRun wrong = CliRun.of("probe", "-f", file.toString(), "--id", "ns-1", "--allow", LOOPBACK);
        assertThat(wrong.exitCode()).as(wrong.out() + wrong.err()).isEqualTo(1);
        assertThat(wrong.out()).contains("condition false", "verdict: UNEXPECTED_RESPONSE: condition false");

        CliRun right = CliRun.of("probe", "-f", file.toString(), "--id", "ns-2", "--allow", LOOPBACK);
        assertThat(right.exitCode()).as(right.out() + right.err()).isZero();
        assertThat(right.out()).contains("condition true", "verdict: SUCCESS");
    }

    @Test
    void aStatusOutsideTheExpectedOnesFailsWithExitCodeOne() throws Exception {
        HttpServer server = http(503, "down for maintenance");

        CliRun run = patiently("--protocol", "http", "--address", "127.0.0.1",
                "--port", Integer.toString(server.getAddress().getPort()), "--path", "/ready", "--method", "get",
                "--allow", LOOPBACK);

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).contains("target cli-probe", "status 503", "body: down for maintenance")
                .contains("verdict: UNEXPECTED_STATUS: status 503 (expected: 2xx)");
    }

    @Test
    void anHttpsTargetIsVerifiedByDefaultAndShowsItsHandshakeAndCertificate() throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("tls"));
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(sslContext(certificates)));
        serve(server, 200, "secure");
        String port = Integer.toString(server.getAddress().getPort());

        CliRun byDefault = patiently("--protocol", "HTTPS", "--address", "127.0.0.1", "--port", port,
                "--allow", LOOPBACK);

        assertThat(byDefault.exitCode()).as(byDefault.out() + byDefault.err()).isEqualTo(1);
        assertThat(byDefault.out()).doesNotContain("certificate:")
                .contains("tls: certificate verified against the JDK's trust store, name checked")
                .contains("verdict: TLS_FAILURE: TLS: certificate not trusted (no path to a trusted issuer)");

        CliRun trusted = patiently("--protocol", "HTTPS", "--address", "127.0.0.1", "--port", port,
                "--method", "GET", "--set", "tls.trustId=test-ca",
                "--trust-bundle", "test-ca=" + certificates.certificatePem(), "--allow", LOOPBACK);

        assertThat(trusted.exitCode()).as(trusted.out() + trusted.err()).isZero();
        assertThat(trusted.out()).contains("tls: certificate verified against trust bundle test-ca, name checked")
                .contains("connecting, then TLS handshake", "TLS handshake done", "status 200")
                .containsPattern("certificate: subject CN=localhost; issuer CN=localhost; names localhost,127.0.0.1;"
                        + " expires \\S+ \\(\\d days left\\); chain of 1, earliest expiry")
                .containsPattern("timings: connect \\S+ ms, TLS \\S+ ms, first byte")
                .contains("body: secure", "verdict: SUCCESS");

        CliRun skipped = patiently("--protocol", "HTTPS", "--address", "127.0.0.1", "--port", port,
                "--set", "tls.insecureSkipVerify=true", "--allow", LOOPBACK);

        assertThat(skipped.exitCode()).as(skipped.out() + skipped.err()).isZero();
        assertThat(skipped.out()).contains("tls: certificate not verified (tls.insecureSkipVerify)",
                "certificate: subject CN=localhost", "verdict: SUCCESS");

        CliRun oldForm = patiently("--protocol", "HTTPS", "--address", "127.0.0.1", "--port", port,
                "--set", "http.tlsVerify=false", "--allow", LOOPBACK);

        assertThat(oldForm.exitCode()).isEqualTo(2);
        assertThat(oldForm.err()).contains("http.tlsVerify: false (expected: true or absent",
                "tls: {insecureSkipVerify: true}");
    }

    @Test
    void aTcpTargetConnectsExchangesAndIsRefusedOnceClosed() throws Exception {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(listener);
        Thread answering = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept(); InputStream in = s.getInputStream()) {
                    byte[] buffer = new byte[4];
                    if (in.readNBytes(buffer, 0, 4) == 4) {
                        s.getOutputStream().write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().flush();
                    }
                } catch (IOException closed) {
                    // the listener closed, or a connect-only probe hung up
                }
            }
        });
        answering.setDaemon(true);
        answering.start();
        String port = Integer.toString(listener.getLocalPort());

        CliRun exchange = patiently("--protocol", "TCP", "--address", "127.0.0.1", "--port", port,
                "--set", "tcp.send=PING", "--set", "tcp.expect=PONG", "--allow", LOOPBACK);

        assertThat(exchange.exitCode()).as(exchange.out() + exchange.err()).isZero();
        assertThat(exchange.out()).contains("connecting", "awaiting expected response", "response: +PONG\\r\\n",
                "verdict: SUCCESS: response contains expected text");

        listener.close();
        CliRun refused = CliRun.of("probe", "--protocol", "TCP", "--address", "127.0.0.1", "--port", port,
                "--allow", LOOPBACK);

        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(1);
        assertThat(refused.out()).contains("verdict: CONNECTION_REFUSED");
    }

    @Test
    void aUdpTargetShowsItsResponse() throws Exception {
        DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        open.add(socket);
        Thread echo = new Thread(() -> {
            byte[] buffer = new byte[512];
            while (!socket.isClosed()) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                    byte[] answer = ("echo " + new String(packet.getData(), 0, packet.getLength(),
                            StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
                    socket.send(new DatagramPacket(answer, answer.length, packet.getSocketAddress()));
                } catch (SocketException closed) {
                    return;
                } catch (IOException e) {
                    // a lost datagram: the probe's timeout judges it
                }
            }
        });
        echo.setDaemon(true);
        echo.start();

        CliRun run = patiently("--protocol", "UDP", "--address", "127.0.0.1",
                "--port", Integer.toString(socket.getLocalPort()), "--set", "udp.mode=PAYLOAD", "--set", "udp.request=hello",
                "--set", "udp.expectedResponse=echo hello", "--allow", LOOPBACK);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("awaiting UDP response", "response: echo hello",
                "verdict: SUCCESS: UDP response contains expected text");
    }

    @Test
    void anIcmpTargetIsPingedWhereTheSystemAllowsIt() {
        CliRun run = patiently("--protocol", "ICMP", "--address", "127.0.0.1", "--port", "1",
                "--allow", LOOPBACK);

        assumeFalse(run.out().contains("verdict: INCONCLUSIVE"), () -> "no ICMP socket here: " + run.out());
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("awaiting ICMP echo reply", "verdict: SUCCESS");
    }

    @Test
    void aNameIsResolvedThenItsLoopbackAddressRefusedByThePolicyUnlessAllowed() {
        CliRun run = CliRun.of("probe", "--protocol", "TCP", "--address", "localhost", "--port", "9");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("resolving localhost", "resolved localhost to ",
                "verdict: BLOCKED_BY_POLICY", "--allow CIDR");
    }

    @Test
    void badInputIsExitCodeTwoWithEveryProblem() throws Exception {
        assertThat(CliRun.of("probe").exitCode()).isEqualTo(2);

        CliRun invalid = CliRun.of("probe", "--protocol", "TCP", "--address", "127.0.0.1", "--port", "70000",
                "--set", "nosuch=1");
        assertThat(invalid.exitCode()).isEqualTo(2);
        assertThat(invalid.err()).contains("port", "nosuch");

        CliRun badSet = CliRun.of("probe", "--protocol", "TCP", "--address", "127.0.0.1", "--port", "80",
                "--set", "tcp");
        assertThat(badSet.exitCode()).isEqualTo(2);
        assertThat(badSet.err()).contains("expected FIELD=VALUE");

        Path file = dir.resolve("two.yaml");
        Files.writeString(file, """
                - {id: a, address: 127.0.0.1, port: 80, protocol: TCP}
                - {id: b, address: 127.0.0.1, port: 81, protocol: TCP}
                """);
        CliRun noId = CliRun.of("probe", "-f", file.toString());
        assertThat(noId.exitCode()).isEqualTo(2);
        assertThat(noId.err()).contains("name one with --id", "ids: a, b");
        CliRun unknownId = CliRun.of("probe", "-f", file.toString(), "--id", "c");
        assertThat(unknownId.exitCode()).isEqualTo(2);
        assertThat(unknownId.err()).contains("no target with id c");
        CliRun both = CliRun.of("probe", "-f", file.toString(), "--id", "a", "--port", "82");
        assertThat(both.exitCode()).isEqualTo(2);

        CliRun badAllow = CliRun.of("probe", "--protocol", "TCP", "--address", "127.0.0.1", "--port", "80",
                "--allow", "not-a-cidr");
        assertThat(badAllow.exitCode()).isEqualTo(2);
        assertThat(badAllow.err()).contains("--allow/--deny", "not-a-cidr");
    }

    private static SSLContext sslContext(TestCertificates certificates) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificates.keyStore())) {
            store.load(in, certificates.password().toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, certificates.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }
}
