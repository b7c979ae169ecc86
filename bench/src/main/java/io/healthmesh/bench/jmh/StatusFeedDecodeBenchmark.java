package io.healthmesh.bench.jmh;

import io.healthmesh.aggregator.status.LatencyPoint;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.GroupRouting;
import io.healthmesh.contract.serde.GroupRoutingDeserializer;
import io.healthmesh.contract.serde.ProbeSample;
import io.healthmesh.contract.serde.ProbeSampleDeserializer;
import io.healthmesh.prober.publish.ProbeResults;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.apache.kafka.common.serialization.Deserializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What the aggregator's status feed pays per probe result to get one latency point: {@code fullDecode} is the old
 * path (the whole {@link ProbeResult} through {@link AvroSerde}, then three getters), {@code sampleDecode} the
 * {@link ProbeSampleDeserializer} the feed uses now (only {@code startedAtMs}, {@code latencyMicros} and
 * {@code outcome}; the rest skipped in the bytes). Both read the same 1,024 results written by the real serializer
 * (as a prober publishes them: TCP successes, every tenth a timeout with its detail), one after the other, and
 * pass the same safety checks (wire header, schema id cached after the first record, bounded first pass).
 * <p>
 * The same for a group event: {@code groupFullDecode} reads the whole {@link GroupHealth} (what the feed
 * did before), {@code groupRoutingDecode} the {@link GroupRoutingDeserializer} the feed uses now (id, flag and
 * counts; the routable ids skipped). 64 events of a group with {@code routableIds} routable members, ids as the load
 * driver names its targets.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StatusFeedDecodeBenchmark {

    private static final String TOPIC = "healthmesh.probe-results";
    private static final int RESULTS = 1024;
    private static final String GROUP_TOPIC = "healthmesh.group-state";
    private static final int GROUP_EVENTS = 64;

    /** Routable ids per group event (1,000 is {@code group.routable.max}'s default). */
    @Param({"50", "1000"})
    public int routableIds;

    private AvroSerde<ProbeResult> serde;
    private Deserializer<ProbeResult> full;
    private ProbeSampleDeserializer samples;
    private byte[][] encoded;
    private int next;
    private AvroSerde<GroupHealth> groupSerde;
    private Deserializer<GroupHealth> groupFull;
    private GroupRoutingDeserializer groupRouting;
    private byte[][] groupEvents;
    private int nextGroup;

    @Setup(Level.Trial)
    public void setUp() {
        Map<String, String> config = Map.of("schema.registry.url", "mem://bench-status-" + UUID.randomUUID());
        serde = AvroSerde.forValues(ProbeResult.class, config);
        full = serde.deserializer();
        samples = ProbeSampleDeserializer.fromConfig(config);
        encoded = new byte[RESULTS][];
        long startedAtMs = 1_700_000_000_000L;
        for (int i = 0; i < RESULTS; i++) {
            var probe = i % 10 == 9 ? SampleResults.tcpTimeout(i, startedAtMs + i) : SampleResults.tcp(i, startedAtMs + i);
            encoded[i] = serde.serializer().serialize(TOPIC, ProbeResults.toAvro(probe, "eu-west-1", "prober-eu-west-1-0"));
        }
        groupSerde = AvroSerde.forValues(GroupHealth.class, config);
        groupFull = groupSerde.deserializer();
        groupRouting = GroupRoutingDeserializer.fromConfig(config);
        groupEvents = new byte[GROUP_EVENTS][];
        for (int i = 0; i < GROUP_EVENTS; i++) {
            List<String> ids = new ArrayList<>(routableIds);
            for (int m = 0; m < routableIds; m++) {
                ids.add(String.format("tp-tcp-%06d", i * 10_000 + m));
            }
            GroupHealth event = GroupHealth.newBuilder().setGroupId("bench-group-" + i).setFailOpen(false)
                    .setMembers(routableIds + i).setHealthy(routableIds).setUnhealthy(i).setDetecting(0).setDisabled(0)
                    .setRoutable(ids).setRoutableTruncated(false).setUpdatedAtMs(startedAtMs + i).build();
            groupEvents[i] = groupSerde.serializer().serialize(GROUP_TOPIC, event);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        samples.close();
        serde.close();
        groupRouting.close();
        groupSerde.close();
    }

    private byte[] nextResult() {
        byte[] bytes = encoded[next];
        next = (next + 1) & (RESULTS - 1);
        return bytes;
    }

    private byte[] nextGroupEvent() {
        byte[] bytes = groupEvents[nextGroup];
        nextGroup = (nextGroup + 1) & (GROUP_EVENTS - 1);
        return bytes;
    }

    @Benchmark
    public int groupFullDecode() {
        GroupHealth g = groupFull.deserialize(GROUP_TOPIC, nextGroupEvent());
        return g.getRoutableTruncated() ? g.getHealthy() + g.getDisabled() : g.getRoutable().size();
    }

    @Benchmark
    public int groupRoutingDecode() {
        GroupRouting g = groupRouting.deserialize(GROUP_TOPIC, nextGroupEvent());
        return g.routable();
    }

    @Benchmark
    public LatencyPoint fullDecode() {
        ProbeResult p = full.deserialize(TOPIC, nextResult());
        return new LatencyPoint(p.getStartedAtMs(), p.getLatencyMicros(), p.getOutcome() == ProbeOutcome.SUCCESS);
    }

    @Benchmark
    public LatencyPoint sampleDecode() {
        ProbeSample s = samples.deserialize(TOPIC, nextResult());
        return new LatencyPoint(s.startedAtMs(), s.latencyMicros(), s.success());
    }
}
