package io.healthmesh.cli.demo;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;

/**
 * A loopback UDP echo service for the demo: every datagram comes back as it was sent while the {@link Switch} is
 * up; while down, datagrams are read and dropped, so a payload probe times out.
 */
public final class DemoUdpEcho implements AutoCloseable {

    private final DatagramSocket socket;
    private final Switch state;
    private final Thread thread;

    private DemoUdpEcho(DatagramSocket socket, Switch state) {
        this.socket = socket;
        this.state = state;
        this.thread = new Thread(this::loop, "demo-udp-" + socket.getLocalPort());
        this.thread.setDaemon(true);
    }

    /** Starts on loopback {@code port} (0 = a free port). */
    public static DemoUdpEcho start(int port, Switch state) throws SocketException {
        DemoUdpEcho echo = new DemoUdpEcho(new DatagramSocket(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port)), state);
        echo.thread.start();
        return echo;
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void loop() {
        byte[] buffer = new byte[2048];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
                if (state.isUp()) {
                    socket.send(new DatagramPacket(packet.getData(), packet.getOffset(), packet.getLength(),
                            packet.getSocketAddress()));
                }
            } catch (IOException e) {
                // closed: the loop condition ends the thread; anything else is one lost datagram
            }
        }
    }

    @Override
    public void close() {
        socket.close();
        try {
            thread.join(Duration.ofSeconds(2).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
