package io.healthmesh.cli.demo;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The demo's loopback backends answer while up and fail the way the probes detect while down. */
class DemoServersTest {

    private final SwitchTest.ManualClock clock = new SwitchTest.ManualClock();
    private final Switch flapping = new Switch(clock, Duration.ofSeconds(10), Duration.ofSeconds(10));

    @Test
    void httpAnswers200WhileUpAnd503WhileDown() throws Exception {
        try (DemoHttpServer http = DemoHttpServer.start(0).route("/flaky", flapping)) {
            HttpClient client = HttpClient.newHttpClient();
            URI uri = URI.create("http://127.0.0.1:" + http.port() + "/flaky");
            assertThat(client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(200);
            assertThat(client.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
            clock.advance(Duration.ofSeconds(10));
            assertThat(client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(503);
            assertThat(client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/other"))
                    .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void tcpRefusesConnectionsWhileDownAndListensAgainWhenUp() throws Exception {
        try (DemoTcpServer tcp = DemoTcpServer.start(0, flapping)) {
            connect(tcp.port());
            clock.advance(Duration.ofSeconds(10));
            awaitRefused(tcp.port());
            clock.advance(Duration.ofSeconds(10));
            awaitAccepted(tcp.port());
        }
    }

    @Test
    void udpEchoesWhileUpAndIsSilentWhileDown() throws Exception {
        try (DemoUdpEcho echo = DemoUdpEcho.start(0, flapping);
             DatagramSocket client = new DatagramSocket()) {
            client.setSoTimeout(2_000);
            assertThat(exchange(client, echo.port(), "ping")).isEqualTo("ping");
            clock.advance(Duration.ofSeconds(10));
            client.setSoTimeout(300);
            assertThatThrownBy(() -> exchange(client, echo.port(), "ping")).isInstanceOf(SocketTimeoutException.class);
        }
    }

    private static String exchange(DatagramSocket client, int port, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        client.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
        DatagramPacket reply = new DatagramPacket(new byte[64], 64);
        client.receive(reply);
        return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.UTF_8);
    }

    private static void connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
        }
    }

    /** The server notices the switch within its check period; poll with a deadline. */
    private static void awaitRefused(int port) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plusSeconds(5);
        while (Instant.now().isBefore(deadline)) {
            try {
                connect(port);
            } catch (ConnectException refused) {
                return;
            }
            Thread.sleep(DemoTcpServer.CHECK_MS);
        }
        throw new AssertionError("port " + port + " still accepts connections");
    }

    private static void awaitAccepted(int port) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(5);
        while (Instant.now().isBefore(deadline)) {
            try {
                connect(port);
                return;
            } catch (IOException refused) {
                Thread.sleep(DemoTcpServer.CHECK_MS);
            }
        }
        throw new AssertionError("port " + port + " does not accept connections again");
    }
}
