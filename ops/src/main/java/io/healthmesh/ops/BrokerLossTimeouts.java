package io.healthmesh.ops;

import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Client timeouts that bound how long a role waits on a broker that vanished (killed, or cut off the network)
 * before it asks another one, added as defaults to a role's {@code kafka.*} pass-through (a key given there wins).
 * Kafka's defaults suit a broker that answers slowly, not one that no longer answers at all: a request in flight to
 * it, or a new connection that is never answered, is given up only after {@code request.timeout.ms} (30 s), and an
 * admin call after {@code default.api.timeout.ms} (60 s). A cluster moves the lost broker's leaderships after its
 * session with the controller expires (9 s by default), so a client that waits 30 s on it keeps the new leader
 * waiting too; healthmesh's state events stalled for more than 90 s in an in-process cluster ({@code BrokerLossIT})
 * as the waits added up in the aggregator: its exactly-once producer flushing to the lost leader, its transaction
 * then aborted by the coordinator, and the rebalance that followed asking the lost broker for end offsets
 * (docs/operations/three-brokers.md, "A lost broker").
 *
 * <ul>
 *   <li>{@code request.timeout.ms} {@value #REQUEST_TIMEOUT_MS} ms for every client of the prober and the aggregator
 *       (Kafka Streams passes it to its consumers, producers and admin client);</li>
 *   <li>{@code admin.default.api.timeout.ms} {@value #STREAMS_ADMIN_API_TIMEOUT_MS} ms for Kafka Streams' admin
 *       client, whose end-offset query in a rebalance otherwise waits a minute on a lost broker.</li>
 * </ul>
 */
public final class BrokerLossTimeouts {

    /** The Kafka client key (the same for consumers, producers and admin clients). */
    public static final String REQUEST_TIMEOUT = "request.timeout.ms";
    /**
     * Far above a healthy request (a produce acknowledged by two replicas, a fetch waiting at most its
     * {@code fetch.max.wait.ms}), below the broker's own fencing of a lost node plus its leader election.
     */
    public static final int REQUEST_TIMEOUT_MS = 5_000;
    /** Kafka Streams' key for its admin client's {@code default.api.timeout.ms}. */
    public static final String STREAMS_ADMIN_API_TIMEOUT = "admin.default.api.timeout.ms";
    /** Three request timeouts: an admin call may retry twice against the next broker. */
    public static final int STREAMS_ADMIN_API_TIMEOUT_MS = 15_000;

    private BrokerLossTimeouts() {
    }

    /** The pass-through {@code kafka} with {@code request.timeout.ms} added unless set: for plain Kafka clients. */
    public static Map<String, String> withDefaults(Map<String, String> kafka) {
        requireNonNull(kafka, "kafka");
        Map<String, String> props = new TreeMap<>(kafka);
        props.putIfAbsent(REQUEST_TIMEOUT, Integer.toString(REQUEST_TIMEOUT_MS));
        return props;
    }

    /** {@link #withDefaults} plus the Kafka Streams admin client's API timeout unless set: for a Streams app. */
    public static Map<String, String> withStreamsDefaults(Map<String, String> kafka) {
        Map<String, String> props = withDefaults(kafka);
        props.putIfAbsent(STREAMS_ADMIN_API_TIMEOUT, Integer.toString(STREAMS_ADMIN_API_TIMEOUT_MS));
        return props;
    }
}
