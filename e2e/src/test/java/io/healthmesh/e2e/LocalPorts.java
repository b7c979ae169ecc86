package io.healthmesh.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free TCP ports on this machine, for host ports that must be known before a container starts. */
final class LocalPorts {

    private LocalPorts() {
    }

    /** A port nothing listens on right now (the usual small race with other processes applies). */
    static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }
}
