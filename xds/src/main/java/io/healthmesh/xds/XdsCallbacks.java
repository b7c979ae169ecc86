package io.healthmesh.xds;

import com.google.rpc.Status;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.exception.RequestException;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the server does around java-control-plane's streams: caps the open streams ({@code xds.max.streams}; one past
 * it is refused with {@code RESOURCE_EXHAUSTED}), counts pushes, and counts and logs every NACK with the client's
 * node and error detail (shortened, control characters removed: it is the client's text).
 */
final class XdsCallbacks implements DiscoveryServerCallbacks {

    private static final Logger LOG = LoggerFactory.getLogger(XdsCallbacks.class);
    /** Longest part of a client's text (node id, error detail) that is logged. */
    static final int MAX_LOGGED = 512;

    private final int maxStreams;
    private final XdsMetrics metrics;
    /** Open streams, by id, with the node id once a request named it. */
    private final ConcurrentHashMap<Long, String> open = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    XdsCallbacks(int maxStreams, XdsMetrics metrics) {
        this.maxStreams = maxStreams;
        this.metrics = metrics;
    }

    /** Streams open now. */
    int openStreams() {
        return count.get();
    }

    @Override
    public void onStreamOpen(long streamId, String typeUrl) throws RequestException {
        if (count.incrementAndGet() > maxStreams) {
            count.decrementAndGet();
            metrics.refused();
            throw new RequestException(io.grpc.Status.RESOURCE_EXHAUSTED
                    .withDescription("healthmesh xds: " + maxStreams + " streams open (xds.max.streams)"));
        }
        open.put(streamId, "");
    }

    @Override
    public void onStreamClose(long streamId, String typeUrl) {
        closed(streamId);
    }

    @Override
    public void onStreamCloseWithError(long streamId, String typeUrl, Throwable error) {
        closed(streamId);
    }

    private void closed(long streamId) {
        // a refused stream was never added: only count down what was counted up
        if (open.remove(streamId) != null) {
            count.decrementAndGet();
        }
    }

    @Override
    public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
        String node = remember(streamId, request.hasNode() ? request.getNode() : null);
        if (request.hasErrorDetail()) {
            nack(node, request.getTypeUrl(), "sotw", request.getResponseNonce(), request.getErrorDetail());
        }
    }

    @Override
    public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
        String node = remember(streamId, request.hasNode() ? request.getNode() : null);
        if (request.hasErrorDetail()) {
            nack(node, request.getTypeUrl(), "delta", request.getResponseNonce(), request.getErrorDetail());
        }
    }

    @Override
    public void onV3StreamResponse(long streamId, DiscoveryRequest request, DiscoveryResponse response) {
        metrics.pushed(response.getTypeUrl(), "sotw");
    }

    @Override
    public void onV3StreamDeltaResponse(long streamId, DeltaDiscoveryRequest request, DeltaDiscoveryResponse response) {
        metrics.pushed(response.getTypeUrl(), "delta");
    }

    /** The node id of the stream: the first request names it, later ones may not. */
    private String remember(long streamId, Node node) {
        if (node != null && !node.getId().isEmpty()) {
            String id = clean(node.getId());
            open.computeIfPresent(streamId, (k, v) -> id);
            return id;
        }
        return open.getOrDefault(streamId, "");
    }

    private void nack(String node, String typeUrl, String protocol, String nonce, Status error) {
        metrics.nacked(typeUrl, protocol);
        LOG.warn("xds NACK ({}) from node '{}' for {} (nonce {}): code {}: {}", protocol, node,
                XdsMetrics.shortType(typeUrl), clean(nonce), error.getCode(), clean(error.getMessage()));
    }

    /** A client's text as it may be logged: bounded, one line, printable. */
    static String clean(String text) {
        String shortened = text.length() > MAX_LOGGED ? text.substring(0, MAX_LOGGED) + "..." : text;
        return shortened.replaceAll("\\p{Cntrl}", " ");
    }
}
