package io.healthmesh.bench.run;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches a fleet named {@code <prefix>-<n>} go from DETECTING to decided ({@link DecisionTimes}): the results topic
 * gives each target's first probe, the state topic read as a downstream consumer reads it ({@code read_committed})
 * its first HEALTHY or UNHEALTHY event, timed when received; the rejected topic, the records of the fleet the aggregator
 * rejected (a result read before its target's definition is one). Both are read from their ends, so create it before the
 * prober and the aggregator start.
 */
public final class DecisionWatch implements AutoCloseable {

    private final DecisionTimes times;
    private final TopicTap<ProbeResult> results;
    private final TopicTap<TargetHealth> states;
    private final TopicTap<byte[]> rejections;

    public DecisionWatch(BenchStack stack, String prefix, int targets) {
        this.times = new DecisionTimes(prefix, targets);
        this.results = new TopicTap<>(stack, stack.topics().probeResults(),
                AvroSerde.forValues(ProbeResult.class, stack.serdeConfig()).deserializer(), "read_uncommitted") {
            @Override
            void onRecord(String key, ProbeResult value, long receivedEpochMicros) {
                synchronized (times) {
                    times.probe(key, value.getStartedAtMs());
                }
            }
        };
        this.states = new TopicTap<>(stack, stack.topics().healthState(),
                AvroSerde.forValues(TargetHealth.class, stack.serdeConfig()).deserializer(), "read_committed") {
            @Override
            void onRecord(String key, TargetHealth value, long receivedEpochMicros) {
                synchronized (times) {
                    times.state(value.getTargetId(), value.getStatus().name(), receivedEpochMicros / 1_000);
                }
            }
        };
        this.rejections = new TopicTap<>(stack, stack.topics().rejected(), new ByteArrayDeserializer(),
                "read_committed") {
            @Override
            void onRecord(String key, byte[] value, long receivedEpochMicros) {
                synchronized (times) {
                    times.rejected(key);
                }
            }
        };
        results.startReading();
        states.startReading();
        rejections.startReading();
    }

    /** Targets probed so far. */
    public int probed() {
        synchronized (times) {
            return times.probed();
        }
    }

    /** Targets decided so far. */
    public int decided() {
        synchronized (times) {
            return times.decided();
        }
    }

    /** The figures so far, with a bound of {@code intervals} intervals of {@code intervalMs} after each first probe. */
    public DecisionTimes.Summary summary(long intervalMs, int intervals) {
        synchronized (times) {
            return times.summary(intervalMs, intervals);
        }
    }

    @Override
    public void close() {
        results.close();
        states.close();
        rejections.close();
    }
}
