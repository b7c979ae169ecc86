package io.healthmesh.bench.run;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaCluster;
import io.healthmesh.embedded.EmbeddedKafkaConfig;

import java.util.Map;

/**
 * The Kafka a benchmark runs on: the embedded single broker ({@link EmbeddedKafka}, what every figure of record
 * uses), or a replicated cluster of three in the same JVM ({@link EmbeddedKafkaCluster}), behind one address.
 *
 * @param bootstrapServers {@code host:port,...} to give clients
 * @param count how many brokers there are, which is also the replication factor their topics get
 * @param stop stops them
 */
public record Brokers(String bootstrapServers, int count, Runnable stop) implements AutoCloseable {

    /**
     * Starts {@code count} brokers (1 or 3) with {@code settings} on top of their own.
     *
     * @throws IllegalArgumentException for another count
     */
    public static Brokers start(int count, Map<String, String> settings) {
        if (count == 1) {
            EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults(), settings);
            return new Brokers(kafka.bootstrapServers(), 1, kafka::close);
        }
        if (count != 3) {
            throw new IllegalArgumentException("brokers: " + count + " (expected: 1 or 3)");
        }
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(count, settings);
        return new Brokers(cluster.bootstrapServers(), cluster.size(), cluster::close);
    }

    @Override
    public void close() {
        stop.run();
    }
}
