package io.healthmesh.testkit.grpc;

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
import io.healthmesh.testkit.farm.TcpRelay;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;

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
 *
 * <p>{@link #withRelays(int)} puts a {@link TcpRelay} in front of each server: {@link #port(int)} is then the
 * relay's, and {@link #stopAccepting(int)} makes a backend refuse new connections (a prober sees it down) while the
 * connections clients already hold keep answering, so that only a health checker's verdict takes it out of a
 * client's list. Without relays, a client's own transport would notice a stopped server at once.
 */
public final class LoopbackBackends implements AutoCloseable {

    private final List<Server> servers = new ArrayList<>();
    private final List<AtomicLong> calls = new ArrayList<>();
    private final List<TcpRelay> relays = new ArrayList<>();
    private final EventLoopGroup relayLoop;
    /** The status of the last failed call, for assertion messages. */
    private volatile String lastError = "none";

    /** {@code count} servers, reached directly. */
    public LoopbackBackends(int count) {
        this(count, false);
    }

    /** {@code count} servers, each behind a relay that can stop accepting connections. */
    public static LoopbackBackends withRelays(int count) {
        return new LoopbackBackends(count, true);
    }

    private LoopbackBackends(int count, boolean relayed) {
        relayLoop = relayed ? new NioEventLoopGroup(1) : null;
        try {
            for (int i = 0; i < count; i++) {
                startServer(relayed);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void startServer(boolean relayed) {
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
        if (relayed) {
            TcpRelay relay = new TcpRelay(relayLoop, "127.0.0.1", new InetSocketAddress("127.0.0.1", server.getPort()));
            relays.add(relay);
            try {
                relay.start();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting a relay", e);
            }
        }
    }

    public int size() {
        return servers.size();
    }

    /** The port clients and probers use for {@code backend}: its relay's when it has one. */
    public int port(int backend) {
        return relays.isEmpty() ? servers.get(backend).getPort() : relays.get(backend).port();
    }

    /** Calls {@code backend} answered so far. */
    public long answered(int backend) {
        return calls.get(backend).get();
    }

    /** The status of the last call that failed, for assertion messages. */
    public String lastError() {
        return lastError;
    }

    /** Relays only: new connections to {@code backend} are refused from now on; open ones keep answering. */
    public void stopAccepting(int backend) {
        switchRelay(backend, false);
    }

    /** Relays only: {@code backend} accepts connections again, on the same port. */
    public void resumeAccepting(int backend) {
        switchRelay(backend, true);
    }

    private void switchRelay(int backend, boolean up) {
        if (relays.isEmpty()) {
            throw new IllegalStateException("these backends have no relays: use LoopbackBackends.withRelays");
        }
        try {
            relays.get(backend).set(up);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while switching backend " + backend, e);
        }
    }

    /** One call through {@code channel}: the index of the backend that answered, or -1 when the call failed. */
    public int call(ManagedChannel channel, boolean waitForReady) {
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
        for (TcpRelay relay : relays) {
            try {
                relay.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        servers.forEach(Server::shutdownNow);
        if (relayLoop != null) {
            relayLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
