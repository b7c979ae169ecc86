package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.QuorumPolicy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static io.healthmesh.aggregator.topology.BinaryFormat.readString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;
import static io.healthmesh.aggregator.topology.BinaryFormat.readCount;
import static io.healthmesh.aggregator.topology.BinaryFormat.readEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableString;

/**
 * The body of a {@code target-health} store value ({@link StoredTargetSerde}): a {@link TargetHealthState} in the
 * compact binary format (strings length-prefixed, enums by name), the regions' inconclusive count and detail
 * included.
 */
final class TargetHealthStateSerde {

    private TargetHealthStateSerde() {
    }

    static void write(DataOutputStream out, TargetHealthState s) throws IOException {
        TargetEssentials e = s.spec();
        writeString(out, e.id());
        writeString(out, e.group());
        out.writeBoolean(e.enabled());
        out.writeInt(e.thresholds().healthy());
        out.writeInt(e.thresholds().unhealthy());
        out.writeInt(e.intervalMs());
        out.writeInt(e.timeoutMs());
        out.writeInt(e.regions().size());
        for (String region : e.regions()) {
            writeString(out, region);
        }
        writeString(out, e.quorum().policy().name());
        out.writeInt(e.quorum().atLeast());
        out.writeLong(e.generation());
        writeString(out, s.status().name());
        writeNullableEnum(out, s.previousStatus());
        out.writeLong(s.sinceMs());
        out.writeBoolean(s.stale());
        out.writeLong(s.watchSinceMs());
        LastResult last = s.lastResult();
        out.writeBoolean(last != null);
        if (last != null) {
            writeString(out, last.region());
            writeString(out, last.outcome().name());
            writeNullableString(out, last.detail());
            out.writeLong(last.latencyMicros());
            out.writeLong(last.startedAtMs());
        }
        out.writeInt(s.regions().size());
        for (RegionState r : s.regions().values()) {
            writeString(out, r.region());
            out.writeLong(r.machine().generation());
            writeString(out, r.machine().status().name());
            out.writeInt(r.machine().consecutiveSuccesses());
            out.writeInt(r.machine().consecutiveFailures());
            writeString(out, r.lastOutcome().name());
            out.writeLong(r.lastResultAtMs());
            out.writeLong(r.lastHeardAtMs());
            out.writeBoolean(r.stale());
            out.writeInt(r.inconclusiveInARow());
            writeNullableString(out, r.lastInconclusiveDetail());
        }
    }

    /** Reads a state {@link #write} wrote. */
    static TargetHealthState read(DataInputStream in) throws IOException {
        String id = readString(in);
        String group = readString(in);
        boolean enabled = in.readBoolean();
        Thresholds thresholds = new Thresholds(in.readInt(), in.readInt());
        int interval = in.readInt();
        int timeout = in.readInt();
        int regionCount = readCount(in);
        List<String> listed = new ArrayList<>(regionCount);
        for (int i = 0; i < regionCount; i++) {
            listed.add(readString(in));
        }
        QuorumRule quorum = new QuorumRule(readEnum(in, QuorumPolicy.class), in.readInt());
        long generation = in.readLong();
        TargetEssentials spec = new TargetEssentials(id, group, enabled, thresholds, interval, timeout, listed, quorum,
                generation);
        HealthStatus status = readEnum(in, HealthStatus.class);
        HealthStatus previous = readNullableEnum(in, HealthStatus.class);
        long since = in.readLong();
        boolean stale = in.readBoolean();
        long watchSince = in.readLong();
        LastResult last = null;
        if (in.readBoolean()) {
            last = new LastResult(readString(in), readEnum(in, Outcome.class), readNullableString(in), in.readLong(),
                    in.readLong());
        }
        int known = readCount(in);
        TreeMap<String, RegionState> regions = new TreeMap<>();
        for (int i = 0; i < known; i++) {
            String region = readString(in);
            HealthStateMachine machine = new HealthStateMachine(in.readLong(), readEnum(in, HealthStatus.class),
                    in.readInt(), in.readInt());
            Outcome lastOutcome = readEnum(in, Outcome.class);
            long lastResultAt = in.readLong();
            long lastHeardAt = in.readLong();
            boolean regionStale = in.readBoolean();
            int inconclusive = in.readInt();
            String inconclusiveDetail = readNullableString(in);
            regions.put(region, new RegionState(region, machine, lastOutcome, lastResultAt, lastHeardAt, regionStale,
                    inconclusive, inconclusiveDetail));
        }
        return new TargetHealthState(spec, status, previous, since, stale, watchSince, last, regions);
    }
}
