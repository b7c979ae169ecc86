package io.healthmesh.bench.run;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaCluster;
import io.healthmesh.embedded.EmbeddedKafkaConfig;

import java.util.Map;

/**
 * The Kafka a benchmark runs on: the embedded single broker ({@link EmbeddedKafka}, what every figure of record
 * uses), or a replicated cluster of three in the same JVM ({@link EmbeddedKafkaCluster}), behind one address.
 */
public interface Brokers extends AutoCloseable {

    /** {@code host:port,...} to give clients. */
    String bootstrapServers();

    /** How many brokers there are, which is also the replication factor their topics get. */
    int count();

    @Override
    void close();

    /**
     * Starts {@code count} brokers (1 or 3) with {@code settings} on top of their own.
     *
     * @throws IllegalArgumentException for another count
     */
    static Brokers start(int count, Map<String, String> settings) throws Exception {
        if (count == 1) {
            EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults(), settings);
            return new Brokers() {
                @Override
                public String bootstrapServers() {
                    return kafka.bootstrapServers();
                }

                @Override
                public int count() {
                    return 1;
                }

                @Override
                public void close() {
                    kafka.close();
                }
            };
        }
        if (count != 3) {
            throw new IllegalArgumentException("brokers: " + count + " (expected: 1 or 3)");
        }
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(count, settings);
        return new Brokers() {
            @Override
            public String bootstrapServers() {
                return cluster.bootstrapServers();
            }

            @Override
            public int count() {
                return count;
            }

            @Override
            public void close() {
                cluster.close();
            }
        };
    }
}
