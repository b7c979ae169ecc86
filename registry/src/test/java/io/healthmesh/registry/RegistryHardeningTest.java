package io.healthmesh.registry;

import io.healthmesh.contract.registry.SchemaRegistry;
import io.healthmesh.ops.HttpLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client that nobody here wrote can send the registry: any method name, writes on paths the API does not
 * have, and more connections than its share. Raw sockets, so nothing cleans a request up on the way.
 */
class RegistryHardeningTest {

    private static final RegistryUsers USERS = RegistryUsers.parse(List.of(
            "admin:admin:s3cret-admin", "worker:read:w0rker-pass"), "test users");
    private static final String WORKER = "Basic " + java.util.Base64.getEncoder()
            .encodeToString("worker:w0rker-pass".getBytes(StandardCharsets.UTF_8));

    private SchemaRegistryServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private int start(RegistrySecurity security, HttpLimits limits) {
        server = SchemaRegistryServer.serve("127.0.0.1", 0, SchemaRegistry.inMemory(), () -> { }, security, limits);
        return URI.create(server.url()).getPort();
    }

    /** One request on a fresh connection; the whole answer, or "no answer" when none comes within 5 s. */
    static String exchange(int port, String method, String path, String authorization) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            String request = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 2\r\n"
                    + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "\r\n{}";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            try {
                return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (SocketTimeoutException e) {
                return "no answer";
            }
        }
    }

    private static int status(String answer) {
        return answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : -1;
    }

    @Test
    void methodNamesNobodyUsesShareOneMetricLabel() throws IOException {
        int port = start(RegistrySecurity.basic(USERS), SchemaRegistryServer.defaultLimits());
        for (int i = 0; i < 40; i++) {
            exchange(port, "XMETHOD" + i, "/subjects", null);
        }
        exchange(port, "GET", "/subjects", null);
        String metrics = exchange(port, "GET", "/metrics", null);
        Set<String> methods = new TreeSet<>();
        Matcher m = Pattern.compile("healthmesh_registry_requests_total\\{[^}]*method=\"([^\"]*)\"").matcher(metrics);
        while (m.find()) {
            methods.add(m.group(1));
        }
        assertThat(methods).contains("GET", "other").doesNotContain("XMETHOD0");
        assertThat(methods.size()).isLessThanOrEqualTo(8);
    }

    @Test
    void writesOnPathsTheApiDoesNotHaveAreAnsweredForEveryKindOfClient() throws IOException {
        int port = start(RegistrySecurity.basic(USERS).withAnonymousRead(true), SchemaRegistryServer.defaultLimits());
        String admin = "Basic " + java.util.Base64.getEncoder().encodeToString("admin:s3cret-admin".getBytes(StandardCharsets.UTF_8));
        for (String method : List.of("PUT", "PATCH", "POST", "PROPFIND")) {
            for (String path : List.of("/", "/x", "/subjects", "/subjects/s", "/schemas/ids/1", "/mode")) {
                for (String who : new String[] {null, WORKER, admin}) {
                    String answer = exchange(port, method, path, who);
                    assertThat(status(answer)).as("%s %s as %s: %s", method, path, who == null ? "anonymous" : who.substring(0, 12), answer)
                            .isBetween(400, 499);
                }
            }
        }
        // and the server still serves: nothing was left half-handled
        assertThat(status(exchange(port, "GET", "/subjects", null))).isEqualTo(200);
    }

    @Test
    void oneClientCannotTakeEveryConnectionAndProbesStillGetInWhenAllAreTaken() throws Exception {
        HttpLimits limits = SchemaRegistryServer.defaultLimits().withConnections(40, 10, 4);
        int port = start(RegistrySecurity.basic(USERS), limits);
        List<Socket> held = new ArrayList<>();
        try {
            // one client (one source address) opens 30 connections and keeps each with a half-sent request
            for (int i = 0; i < 30; i++) {
                held.add(halfSentRequest("127.0.0.2", port));
            }
            assertThat(stillOpen(held)).as("connections of one client held open").isBetween(10, 12);
            // another client is served in full
            assertThat(status(exchange(port, "GET", "/subjects", WORKER))).isEqualTo(200);
            // three more clients take the rest of the 40
            for (String address : List.of("127.0.0.3", "127.0.0.4", "127.0.0.5")) {
                for (int i = 0; i < 10; i++) {
                    held.add(halfSentRequest(address, port));
                }
            }
            // every ordinary connection is taken: an orchestrator's probe still gets its answer, the API does not
            assertThat(status(exchange(port, "GET", "/healthz", null))).isEqualTo(200);
            assertThat(status(exchange(port, "GET", "/readyz", null))).isEqualTo(200);
            String api = exchange(port, "GET", "/subjects", WORKER);
            assertThat(status(api)).as(api).isEqualTo(503);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static Socket halfSentRequest(String from, int port) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.getOutputStream().write("GET /subjects HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
        return s;
    }

    /** How many of these connections the server keeps open (a closed one reads end of stream at once). */
    private static int stillOpen(List<Socket> sockets) throws IOException {
        int open = 0;
        for (Socket s : sockets) {
            s.setSoTimeout(300);
            try {
                if (s.getInputStream().read() != -1) {
                    open++;
                }
            } catch (SocketTimeoutException e) {
                open++;
            } catch (IOException e) {
                // reset: closed
            }
        }
        return open;
    }
}
