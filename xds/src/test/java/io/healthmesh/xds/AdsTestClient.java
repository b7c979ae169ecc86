package io.healthmesh.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw ADS client on the Envoy API's generated stub, speaking either protocol, as Envoy would: what the tests use
 * where grpc-java's own xDS client cannot go (delta, NACKs, counting what is sent).
 */
final class AdsTestClient implements AutoCloseable {

    static final Node ENVOY = Node.newBuilder().setId("envoy-test").setCluster("test").setUserAgentName("envoy").build();

    private final BlockingQueue<DiscoveryResponse> sotw = new LinkedBlockingQueue<>();
    private final BlockingQueue<DeltaDiscoveryResponse> delta = new LinkedBlockingQueue<>();
    final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
    private final StreamObserver<DiscoveryRequest> sotwRequests;
    private final StreamObserver<DeltaDiscoveryRequest> deltaRequests;

    AdsTestClient(ManagedChannel channel, boolean isDelta) {
        AggregatedDiscoveryServiceGrpc.AggregatedDiscoveryServiceStub stub = AggregatedDiscoveryServiceGrpc.newStub(channel);
        if (isDelta) {
            deltaRequests = stub.deltaAggregatedResources(observer(delta));
            sotwRequests = null;
        } else {
            sotwRequests = stub.streamAggregatedResources(observer(sotw));
            deltaRequests = null;
        }
    }

    private <T> StreamObserver<T> observer(BlockingQueue<T> into) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                into.add(value);
            }

            @Override
            public void onError(Throwable t) {
                errors.add(t);
            }

            @Override
            public void onCompleted() {
                errors.add(new IllegalStateException("completed"));
            }
        };
    }

    void send(DiscoveryRequest request) {
        sotwRequests.onNext(request);
    }

    void send(DeltaDiscoveryRequest request) {
        deltaRequests.onNext(request);
    }

    /** The next state-of-the-world response, or null after {@code wait}. */
    DiscoveryResponse sotw(Duration wait) throws InterruptedException {
        return sotw.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next delta response, or null after {@code wait}. */
    DeltaDiscoveryResponse delta(Duration wait) throws InterruptedException {
        return delta.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        if (sotwRequests != null) {
            sotwRequests.onCompleted();
        }
        if (deltaRequests != null) {
            deltaRequests.onCompleted();
        }
    }
}
