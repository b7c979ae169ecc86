package io.healthmesh.prober.publish;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;

/**
 * Maps a finished probe to the Avro {@link ProbeResult} of the contract. Once per published result, so it uses the
 * record's all-fields constructor (the builder checks every field's value against the schema on each build) and
 * tables from the engine's enums to the contract's (no lookup by name per result).
 */
public final class ProbeResults {

    private static final Protocol[] PROTOCOLS = mapped(io.healthmesh.core.target.Protocol.values(), Protocol.class);
    private static final ProbeOutcome[] OUTCOMES = mapped(Outcome.values(), ProbeOutcome.class);

    private ProbeResults() {
    }

    public static ProbeResult toAvro(CompletedProbe probe, String region, String proberId) {
        ProbeReport report = probe.report();
        // the constructor takes the fields in the schema's order; ResultPublisherTest sets each to its own value
        return new ProbeResult(
                probe.target().id(),
                probe.generation(),
                region,
                proberId,
                PROTOCOLS[probe.target().protocol().ordinal()],
                probe.startedAtMs(),
                OUTCOMES[report.outcome().ordinal()],
                report.latencyMicros(),
                report.connectMicros(),
                report.tlsMicros(),
                report.firstByteMicros(),
                report.httpStatus(),
                report.detail(),
                probe.schedulingLagMicros(),
                report.certNotAfterMs(),
                report.chainNotAfterMs());
    }

    /** The contract's constant of each engine constant, by ordinal; fails at class load if one has no namesake. */
    private static <E extends Enum<E>> E[] mapped(Enum<?>[] from, Class<E> to) {
        @SuppressWarnings("unchecked")
        E[] table = (E[]) java.lang.reflect.Array.newInstance(to, from.length);
        for (Enum<?> constant : from) {
            table[constant.ordinal()] = Enum.valueOf(to, constant.name());
        }
        return table;
    }
}
