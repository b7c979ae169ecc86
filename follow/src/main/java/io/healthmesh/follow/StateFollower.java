package io.healthmesh.follow;

import java.util.Map;

/** Stand-in of the follow API until the follow branch lands. */
public final class StateFollower implements AutoCloseable {
    public static StateFollower start(Map<String, Object> clientProps, String topicPrefix, StateListener listener,
                                      io.prometheus.metrics.model.registry.PrometheusRegistry metrics,
                                      String metricPrefix) {
        throw new UnsupportedOperationException("stand-in");
    }
    public boolean caughtUp() { return false; }
    public FollowedState state() { return FollowedState.of(java.util.List.of()); }
    public long lagRecords() { return 0; }
    @Override public void close() { }
}
