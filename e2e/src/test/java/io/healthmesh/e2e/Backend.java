package io.healthmesh.e2e;

/**
 * The example backends of the stack (the targets image, served by socat), each at a fixed address of the test
 * network so that stopping and starting one keeps the target definition valid. Each test uses its own.
 */
enum Backend {
    /** The backend that {@code BackendStopStartIT} stops and starts. */
    SOLO_TCP("solo-tcp", Kind.TCP, 101),
    /** The two members of the group that {@code GroupFailOpenIT} takes down. */
    WEB_1("web-1", Kind.HTTP, 102),
    WEB_2("web-2", Kind.HTTP, 103),
    /** Always up, probed from every region: {@code ProberFailoverIT} watches who probes them. */
    STEADY_HTTP("steady-http", Kind.HTTP, 104),
    STEADY_TCP("steady-tcp", Kind.TCP, 105),
    STEADY_UDP("steady-udp", Kind.UDP_ECHO, 106),
    /** Flipped down and up while {@code AggregatorFailoverIT} kills an aggregator. */
    FLIP_TCP("flip-tcp", Kind.TCP, 107);

    /** What a backend serves, and on which port. */
    enum Kind {
        HTTP("http", 8080), TCP("tcp", 9000), UDP_ECHO("udp-echo", 9999);

        final String command;
        final int port;

        Kind(String command, int port) {
            this.command = command;
            this.port = port;
        }
    }

    final String containerName;
    final Kind kind;
    final int host;

    Backend(String containerName, Kind kind, int host) {
        this.containerName = containerName;
        this.kind = kind;
        this.host = host;
    }
}
