package io.healthmesh.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/** Loopback ports in a known state for the probes' tests: closed, or with a full accept queue. */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A loopback port with nothing listening: bound, then released. */
    public static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Connects until the listener's accept queue is full (Linux then drops further SYNs), or null when no
     * connect timed out within the bound.
     */
    public static List<Socket> fillAcceptQueue(int port) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 300);
                sockets.add(s);
            } catch (SocketTimeoutException full) {
                s.close();
                return sockets;
            }
        }
        for (Socket s : sockets) {
            s.close();
        }
        return null;
    }
}
