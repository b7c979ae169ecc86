package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.bench.jmh.NanosPerOperation;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the aggregator's stores cost per record, serde only (the RocksDB write and the changelog send come on top,
 * in proportion to the bytes): {@code targetState} is the read and write of a target's state that every applied
 * result makes; {@code historyRow} the row of the {@code target-history-rows} ring it adds (every applied result,
 * unless {@code history.length=0}; before, the whole history of 50 entries was read and rewritten); {@code groupMember} what a member's status change costs in
 * the group stores (its row, the counters), the same for a group of 2 or 100,000.
 *
 * <p>It lives in the topology's package (in this module, not the aggregator's) because the row layouts it measures,
 * {@link HistoryRows} and {@link GroupRows}, are the topology's own and stay package-private: the benchmark reads
 * them where they are instead of the product publishing them for it.
 */
public class StoreWriteBenchmark extends NanosPerOperation {

    private final StoredTargetSerde stateSerde = new StoredTargetSerde();
    private final GroupStateSerde countsSerde = new GroupStateSerde();
    private byte[] state;
    private byte[] counts;
    private long clockMs = 1_700_000_000_000L;

    @Setup(Level.Trial)
    public void setUp() {
        TargetSpec spec = TargetSpec.of("web-000001", "pool-0001", "127.1.0.1", 8080, Protocol.TCP);
        state = stateSerde.serializer().serialize("", new StoredTarget(TargetHealthState.create(
                TargetEssentials.of(spec), clockMs, clockMs).after(), 17));
        counts = countsSerde.serializer().serialize("", GroupState.of(new GroupCounts(100_000, 60_000, 20_000, 19_999, 1),
                PanicThreshold.NONE));
    }

    @Benchmark
    public byte[] targetState() {
        return stateSerde.serializer().serialize("", stateSerde.deserializer().deserialize("", state));
    }

    /** The row an applied result adds to the history ring (its key and value; the next number is in the state). */
    @Benchmark
    public void historyRow(Blackhole bh) {
        clockMs += 1_000;
        bh.consume(HistoryRows.key("web-000001", (int) (clockMs % 50)));
        bh.consume(HistoryRows.encode(clockMs, new TargetHistory.Result(clockMs, "default", Outcome.SUCCESS, 150_000,
                null)));
    }

    @Benchmark
    public void groupMember(Blackhole bh) {
        bh.consume(GroupRows.key("pool-0001", GroupRows.MEMBER, "web-000001"));
        HealthStatus before = GroupRows.decodeStatus(GroupRows.encodeStatus(HealthStatus.HEALTHY));
        GroupState c = countsSerde.deserializer().deserialize("", counts);
        GroupState next = c.move(before, HealthStatus.UNHEALTHY);
        bh.consume(c.routingChangesTo(next, before, HealthStatus.UNHEALTHY));
        bh.consume(GroupRows.encodeStatus(HealthStatus.UNHEALTHY));
        bh.consume(countsSerde.serializer().serialize("", next));
    }
}
