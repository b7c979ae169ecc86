package io.healthmesh.embedded;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeRelayTest {

    private static final int READ_TIMEOUT_MS = 2_000;
    private static final int SILENCE_MS = 300;

    @Test
    void relaysUntilBlackholedThenHoldsEveryConnectionOpenAndSilent() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ExecutorService echoes = Executors.newCachedThreadPool();
        try (ServerSocket echo = new ServerSocket(0, 50, loopback)) {
            echoes.submit(() -> serveEchoes(echo, echoes));
            int relayPort = FreePorts.pick(loopback, 1)[0];
            try (NodeRelay relay = new NodeRelay(loopback, relayPort, echo.getLocalPort(), "relay-test")) {
                relay.start();
                try (Socket before = new Socket(loopback, relayPort)) {
                    before.setSoTimeout(READ_TIMEOUT_MS);
                    before.getOutputStream().write('a');
                    assertThat(before.getInputStream().read()).as("relayed and echoed").isEqualTo('a');

                    relay.blackhole();
                    before.getOutputStream().write('b');
                    before.setSoTimeout(SILENCE_MS);
                    assertThatThrownBy(() -> before.getInputStream().read())
                            .as("nothing comes back, and the connection is not closed")
                            .isInstanceOf(SocketTimeoutException.class);

                    try (Socket after = new Socket(loopback, relayPort)) {
                        after.setSoTimeout(SILENCE_MS);
                        after.getOutputStream().write('c');
                        assertThatThrownBy(() -> after.getInputStream().read())
                                .as("a new connection is accepted and never answered")
                                .isInstanceOf(SocketTimeoutException.class);
                    }
                }
            }
        } finally {
            echoes.shutdownNow();
        }
    }

    private static void serveEchoes(ServerSocket server, ExecutorService threads) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                threads.submit(() -> echo(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void echo(Socket socket) {
        try (socket; InputStream in = socket.getInputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
                socket.getOutputStream().write(b);
            }
        } catch (IOException e) {
            // the test closed it
        }
    }
}
