package io.healthmesh.testkit.farm;

import io.healthmesh.core.target.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetFarmTest {

    private TargetFarm farm;

    @BeforeEach
    void start() throws InterruptedException {
        farm = TargetFarm.start(new FarmLayout(2, 1, 3, 1, "127.3.0.1"), 1);
    }

    @AfterEach
    void stop() {
        farm.close();
    }

    @Test
    void handsOutOneLoopbackAddressPerListenerAndOnePathPerHttpTarget() {
        assertThat(farm.targets()).extracting(FarmTarget::key)
                .containsExactly("tcp-0", "tcp-1", "http-0-0", "http-0-1", "http-0-2", "udp-0");
        assertThat(farm.targets(Protocol.TCP)).extracting(FarmTarget::address)
                .containsExactly("127.3.0.1", "127.3.0.2");
        assertThat(farm.targets(Protocol.HTTP)).extracting(FarmTarget::address).containsOnly("127.3.0.3");
        assertThat(farm.targets(Protocol.HTTP)).extracting(FarmTarget::path).containsExactly("/t/0", "/t/1", "/t/2");
        assertThat(farm.targets(Protocol.UDP)).extracting(FarmTarget::address).containsExactly("127.3.0.4");
    }

    @Test
    void tcpTargetDownRefusesAndUpAcceptsOnTheSamePort() throws Exception {
        FarmTarget tcp = farm.targets(Protocol.TCP).get(0);
        assertThat(connects(tcp)).isTrue();

        Transition down = farm.setUp(tcp, false);
        assertThat(down.up()).isFalse();
        assertThatThrownBy(() -> connect(tcp)).isInstanceOf(ConnectException.class);
        assertThat(connects(farm.targets(Protocol.TCP).get(1))).isTrue();

        farm.setUp(tcp, true);
        assertThat(connects(tcp)).isTrue();
    }

    @Test
    void httpPathAnswers200WhileUpAnd503WhileDownAndOtherPathsAreUntouched() throws Exception {
        List<FarmTarget> http = farm.targets(Protocol.HTTP);
        assertThat(status(http.get(1))).isEqualTo(200);

        farm.setUp(http.get(1), false);
        assertThat(status(http.get(1))).isEqualTo(503);
        assertThat(status(http.get(0))).isEqualTo(200);

        farm.setUp(http.get(1), true);
        assertThat(status(http.get(1))).isEqualTo(200);
    }

    @Test
    void udpTargetEchoesWhileUpAndStaysSilentWhileDown() throws Exception {
        FarmTarget udp = farm.targets(Protocol.UDP).get(0);
        assertThat(echo(udp, "ping")).isEqualTo("ping");

        farm.setUp(udp, false);
        assertThat(echo(udp, "ping")).isNull();
    }

    @Test
    void recordsEachRealSwitchOnceInOrder() throws Exception {
        FarmTarget tcp = farm.targets(Protocol.TCP).get(0);
        long before = System.currentTimeMillis() * 1_000;
        farm.setUp(tcp, false);
        assertThat(farm.setUp(tcp, false)).isNull();
        farm.setUp(tcp, true);

        List<Transition> log = farm.transitions().snapshot();
        assertThat(log).extracting(Transition::up).containsExactly(false, true);
        assertThat(log).allSatisfy(t -> assertThat(t.target()).isEqualTo(tcp));
        assertThat(log.get(0).epochMicros()).isGreaterThanOrEqualTo(before);
        assertThat(log.get(1).nanoTime()).isGreaterThan(log.get(0).nanoTime());
    }

    @Test
    void aTcpFarmOfAnIntegrationTestAcceptsOnOneAddressPerBackend() throws Exception {
        try (TargetFarm backends = TargetFarm.tcp(3)) {
            assertThat(backends.targets()).extracting(FarmTarget::address)
                    .containsExactly("127.1.0.1", "127.1.0.2", "127.1.0.3");
            for (FarmTarget backend : backends.targets()) {
                assertThat(backend.socketAddress()).isEqualTo(new InetSocketAddress(backend.address(), backend.port()));
                assertThat(connects(backend)).isTrue();
            }
        }
    }

    @Test
    void layoutRejectsAddressesOutsideLoopbackAndTooManyListeners() {
        assertThatThrownBy(() -> new FarmLayout(1, 0, 1, 0, "10.0.0.1"))
                .hasMessage("firstAddress: 10.0.0.1 (expected: in 127.0.0.0/8)");
        assertThatThrownBy(() -> FarmLayout.of(4_000, 97, 1, 0))
                .hasMessage("listeners: 4097 (expected: 0..4096)");
        assertThatThrownBy(() -> FarmLayout.of(1, 1, 0, 0))
                .hasMessage("httpPathsPerListener: 0 (expected: 1..1000)");
        assertThatThrownBy(() -> new FarmLayout(3, 0, 1, 0, "127.255.255.253"))
                .hasMessageStartingWith("firstAddress: 127.255.255.253");
        assertThatThrownBy(() -> farm.setUp(new FarmTarget("x", Protocol.TCP, "127.9.9.9", 1, null), false))
                .hasMessage("target: x (expected: a target of this farm)");
    }

    private static boolean connects(FarmTarget target) throws IOException {
        connect(target);
        return true;
    }

    private static void connect(FarmTarget target) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(target.address(), target.port()), 2_000);
        }
    }

    /** The status answered; the bound is generous because a loaded machine's first request is slow, not wrong. */
    private static int status(FarmTarget target) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target.endpoint()))
                .timeout(Duration.ofSeconds(10)).GET().build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The echoed text, or null when nothing came back within 300 ms (silence is the expected answer when down). */
    private static String echo(FarmTarget target, String text) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            socket.setSoTimeout(300);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            socket.send(new DatagramPacket(bytes, bytes.length, new InetSocketAddress(target.address(), target.port())));
            DatagramPacket reply = new DatagramPacket(new byte[64], 64);
            try {
                socket.receive(reply);
            } catch (SocketTimeoutException e) {
                return null;
            }
            return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.UTF_8);
        }
    }
}
