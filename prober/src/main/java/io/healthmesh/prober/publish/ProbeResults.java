package io.healthmesh.prober.publish;

import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;

/** Maps a finished probe to the Avro {@link ProbeResult} of the contract. */
public final class ProbeResults {

    private ProbeResults() {
    }

    public static ProbeResult toAvro(CompletedProbe probe, String region, String proberId) {
        ProbeReport report = probe.report();
        return ProbeResult.newBuilder()
                .setTargetId(probe.target().id())
                .setGeneration(probe.generation())
                .setRegion(region)
                .setProberId(proberId)
                .setProtocol(Protocol.valueOf(probe.target().protocol().name()))
                .setStartedAtMs(probe.startedAtMs())
                .setOutcome(ProbeOutcome.valueOf(report.outcome().name()))
                .setLatencyMicros(report.latencyMicros())
                .setConnectMicros(report.connectMicros())
                .setTlsMicros(report.tlsMicros())
                .setFirstByteMicros(report.firstByteMicros())
                .setHttpStatus(report.httpStatus())
                .setDetail(report.detail())
                .setSchedulingLagMicros(probe.schedulingLagMicros())
                .build();
    }
}
