package io.healthmesh.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds TCP ports that are free at the time of the call.
 *
 * <p>A port found here can be taken by another process before its user binds it; callers that
 * bind later (such as {@link EmbeddedKafka}) retry with fresh ports when the bind fails. Several
 * ports asked for in one call are distinct, because every probe socket stays open until all are found.
 */
public final class FreePorts {

    private FreePorts() {
    }

    /** One free port on the loopback address. */
    public static int one() {
        return pick(InetAddress.getLoopbackAddress(), 1)[0];
    }

    /** Whether {@code port} can be bound on {@code address} right now. */
    public static boolean isFree(InetAddress address, int port) {
        Objects.requireNonNull(address, "address");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * {@code count} distinct ports free on {@code address}.
     *
     * @throws UncheckedIOException when the address cannot be bound at all
     */
    public static int[] pick(InetAddress address, int count) {
        Objects.requireNonNull(address, "address");
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("count: " + count + " (expected: 1..64)");
        }
        List<ServerSocket> held = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                held.add(socket);
                // SO_REUSEADDR lets the real server bind right after this probe closes, even in TIME_WAIT.
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(address, 0));
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + address.getHostAddress(), e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // a probe socket that fails to close leaks nothing we could recover
                }
            }
        }
    }
}
