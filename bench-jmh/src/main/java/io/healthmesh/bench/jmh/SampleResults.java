package io.healthmesh.bench.jmh;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.CompletedProbe;

/** Probe results shaped like the ones a prober publishes for a loopback TCP target. */
final class SampleResults {

    private SampleResults() {
    }

    /** A completed TCP probe of target {@code t-<n>}: success, with its connect time and a small lag. */
    static CompletedProbe tcp(int n, long startedAtMs) {
        TargetSpec spec = TargetSpec.of("t-" + n, "g-" + (n % 100), "127.1." + (n / 250 % 250) + "." + (n % 250 + 1),
                8080, Protocol.TCP).withTiming(10_000, 2_000);
        return new CompletedProbe(spec, ProbeFingerprint.of(spec), startedAtMs, 180,
                new ProbeReport(Outcome.SUCCESS, 142, 131L, null, null, null, null));
    }

    /** A timed-out TCP probe of target {@code t-<n>}: no connect time, the prober's detail. */
    static CompletedProbe tcpTimeout(int n, long startedAtMs) {
        TargetSpec spec = TargetSpec.of("t-" + n, "g-" + (n % 100), "127.1." + (n / 250 % 250) + "." + (n % 250 + 1),
                8080, Protocol.TCP).withTiming(10_000, 2_000);
        return new CompletedProbe(spec, ProbeFingerprint.of(spec), startedAtMs, 240,
                new ProbeReport(Outcome.TIMEOUT, 2_000_311, null, null, null, null, "no answer within 2000 ms"));
    }
}
