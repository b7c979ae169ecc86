package io.healthmesh.bench.run;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.ProbeResult;

/**
 * Which targets of a fleet named {@code <prefix>-<n>} have been probed since an instant ({@link FirstProbeTimes}),
 * from the results topic read from its end. {@link #since(long)} starts a new round (a restart).
 */
public final class FirstProbes extends TopicTap<ProbeResult> {

    private final FirstProbeTimes times;

    public FirstProbes(BenchStack stack, String prefix, int targets, long sinceMs) {
        super(stack, stack.topics().probeResults(), AvroSerde.forValues(ProbeResult.class, stack.serdeConfig())
                .deserializer(), "read_uncommitted");
        this.times = new FirstProbeTimes(prefix, targets, sinceMs);
        startReading();
    }

    /** Forgets every probe: from now on only probes started at or after {@code instantMs} count. */
    public synchronized void since(long instantMs) {
        times.since(instantMs);
    }

    @Override
    synchronized void onRecord(String key, ProbeResult value, long receivedEpochMicros) {
        times.probe(key, value.getStartedAtMs());
    }

    /** Targets probed since the round's instant. */
    public synchronized int probed() {
        return times.probed();
    }

    /** See {@link FirstProbeTimes#millisToProbe(double)}. */
    public synchronized long millisToProbe(double share) {
        return times.millisToProbe(share);
    }
}
