package io.healthmesh.contract;

import java.util.List;

/**
 * How many copies the topics healthmesh creates get, and whether a single copy is acceptable. A production cluster
 * keeps three copies of every partition and acknowledges a write once two of them have it ({@link
 * #minInsyncReplicas()}): one broker can be lost, restarted or cut off without losing a state change or stopping
 * writes. A single copy loses every partition of its broker with the broker, so it is refused unless the setup says
 * it is a demo or a development stack on one broker ({@link #SINGLE_COPY_SETTING}).
 *
 * @param factor copies of every partition (1..32)
 * @param singleCopyAllowed true for a demo or dev setup on one broker: lets {@code factor} 1 create topics
 */
public record TopicReplication(short factor, boolean singleCopyAllowed) {

    /** The setting (aggregator, and anything else that creates healthmesh's topics) that allows a single copy. */
    public static final String SINGLE_COPY_SETTING = "replication.single.copy.allowed";
    /** Copies a production cluster keeps. */
    public static final short PRODUCTION_FACTOR = 3;
    /** Copies that must acknowledge a write once a topic has {@link #PRODUCTION_FACTOR} or more. */
    static final int PRODUCTION_MIN_INSYNC = 2;

    public TopicReplication {
        if (factor < 1 || factor > 32) {
            throw new IllegalArgumentException("replication.factor: " + factor + " (expected: 1..32)");
        }
    }

    /** Three copies, two in sync: the production shape. */
    public static TopicReplication production() {
        return new TopicReplication(PRODUCTION_FACTOR, false);
    }

    /** One copy, knowingly: the demo, a one-broker dev stack, in-process tests. */
    public static TopicReplication singleCopy() {
        return new TopicReplication((short) 1, true);
    }

    /**
     * The {@code min.insync.replicas} of the topics created with this factor: 2 from three copies on (one broker may
     * be away and writes go on, yet an acknowledged write is on two brokers), else 1 (with two copies, 2 would stop
     * every write while either broker is away).
     */
    public int minInsyncReplicas() {
        return factor >= PRODUCTION_FACTOR ? PRODUCTION_MIN_INSYNC : 1;
    }

    /**
     * Refuses to create {@code topics} with one copy unless {@link #singleCopyAllowed}.
     *
     * @throws IllegalStateException naming the settings that decide it
     */
    public void requireCreatable(List<String> topics) {
        if (factor == 1 && !singleCopyAllowed && !topics.isEmpty()) {
            throw new IllegalStateException("refusing to create " + String.join(", ", topics)
                    + " with replication.factor=1: a single copy loses the topic with its broker. Set"
                    + " replication.factor=" + PRODUCTION_FACTOR + " (three brokers or more, min.insync.replicas "
                    + PRODUCTION_MIN_INSYNC + "), or " + SINGLE_COPY_SETTING + "=true for a demo or dev setup on"
                    + " one broker");
        }
    }
}
