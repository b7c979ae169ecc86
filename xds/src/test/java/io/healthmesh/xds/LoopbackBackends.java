package io.healthmesh.xds;

import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real gRPC servers on loopback (the standard health service), each counting the calls it answers, and a way to make
 * one call through a channel and learn which backend answered it.
 */
final class LoopbackBackends implements AutoCloseable {

    private final List<Server> servers = new ArrayList<>();
    private final List<AtomicLong> calls = new ArrayList<>();
    /** The status of the last failed call, for assertion messages. */
    volatile String lastError = "none";

    LoopbackBackends(int count) {
        for (int i = 0; i < count; i++) {
            AtomicLong answered = new AtomicLong();
            ServerInterceptor counting = new ServerInterceptor() {
                @Override
                public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                                   ServerCallHandler<Q, R> next) {
                    answered.incrementAndGet();
                    return next.startCall(call, headers);
                }
            };
            Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                            InsecureServerCredentials.create())
                    .addService(ServerInterceptors.intercept(new HealthStatusManager().getHealthService(), counting))
                    .build();
            try {
                server.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            servers.add(server);
            calls.add(answered);
        }
    }

    int port(int backend) {
        return servers.get(backend).getPort();
    }

    /** One call through {@code channel}: the index of the backend that answered, or -1 when the call failed. */
    int call(ManagedChannel channel, boolean waitForReady) {
        long[] before = calls.stream().mapToLong(AtomicLong::get).toArray();
        try {
            HealthGrpc.HealthBlockingStub stub = HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
            stub = waitForReady ? stub.withWaitForReady() : stub;
            stub.check(HealthCheckRequest.getDefaultInstance());
        } catch (StatusRuntimeException e) {
            lastError = e.getStatus().toString();
            return -1;
        }
        for (int i = 0; i < before.length; i++) {
            if (calls.get(i).get() != before[i]) {
                return i;
            }
        }
        throw new IllegalStateException("a call succeeded but no backend counted it");
    }

    @Override
    public void close() {
        servers.forEach(Server::shutdownNow);
    }
}
