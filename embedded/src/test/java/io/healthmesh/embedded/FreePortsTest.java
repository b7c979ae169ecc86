package io.healthmesh.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsAskedForTogetherAreDistinctAndBindable() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int[] ports = FreePorts.pick(loopback, 5);

        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(5);
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(loopback, port));
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void onePortIsInTheUnprivilegedRange() {
        assertThat(FreePorts.one()).isBetween(1024, 65535);
    }

    @Test
    void aBoundPortIsNotFree() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket socket = new ServerSocket(0, 50, loopback)) {
            assertThat(FreePorts.isFree(loopback, socket.getLocalPort())).isFalse();
        }
        assertThat(FreePorts.isFree(loopback, FreePorts.one())).isTrue();
    }

    @Test
    void rejectsCountsOutOfRange() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        assertThatThrownBy(() -> FreePorts.pick(loopback, 0)).hasMessage("count: 0 (expected: 1..64)");
        assertThatThrownBy(() -> FreePorts.pick(loopback, 65)).hasMessage("count: 65 (expected: 1..64)");
    }
}
