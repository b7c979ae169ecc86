package io.healthmesh.core.target;

/**
 * GRPC probe settings: one {@code grpc.health.v1.Health/Check} call.
 *
 * @param service the service name asked about; empty asks about the server as a whole
 * @param tls true to call over TLS (ALPN {@code h2}), false for plaintext HTTP/2 with prior knowledge
 */
public record GrpcSpec(String service, boolean tls) {

    /** Longest service name accepted: fully qualified gRPC service names are far shorter. */
    public static final int MAX_SERVICE_LENGTH = 200;

    /** The settings used when a definition has no {@code grpc} section: the whole server, plaintext. */
    public static final GrpcSpec DEFAULTS = new GrpcSpec("", false);

    public GrpcSpec {
        service = service == null ? "" : service;
    }
}
