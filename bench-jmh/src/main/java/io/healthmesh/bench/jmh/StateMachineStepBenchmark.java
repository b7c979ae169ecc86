package io.healthmesh.bench.jmh;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetUpdate;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.domain.Transition;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * The aggregator's per-result domain step, without Kafka Streams: {@code machine} is one region's threshold
 * machine ({@link HealthStateMachine#observe}); {@code target} is the whole per-target step that the processor
 * calls for each result ({@link TargetHealthState#apply}: generation and order checks, the region's machine,
 * the quorum). Results follow a pattern of 7 successes then 3 failures, so the target flips twice per 10 results.
 */
public class StateMachineStepBenchmark extends NanosPerOperation {

    private static final Thresholds THRESHOLDS = new Thresholds(3, 3);

    private HealthStateMachine machine;
    private TargetHealthState target;
    private long generation;
    private long clockMs;
    private int step;

    @Setup(Level.Trial)
    public void setUp() {
        TargetSpec spec = TargetSpec.of("t-1", "g-1", "127.1.0.1", 8080, Protocol.TCP).withTiming(1_000, 500);
        generation = ProbeFingerprint.of(spec);
        machine = HealthStateMachine.detecting(generation);
        clockMs = 1_700_000_000_000L;
        target = TargetHealthState.create(TargetEssentials.of(spec), clockMs, clockMs).after();
    }

    private boolean nextSuccess() {
        step = (step + 1) % 10;
        return step < 7;
    }

    @Benchmark
    public Transition machine() {
        Transition t = machine.observe(nextSuccess(), THRESHOLDS);
        machine = t.state();
        return t;
    }

    @Benchmark
    public TargetUpdate target() {
        clockMs += 1_000;
        boolean success = nextSuccess();
        ProbeObservation result = new ProbeObservation("default", generation,
                success ? Outcome.SUCCESS : Outcome.CONNECTION_REFUSED, clockMs, 150, null);
        TargetUpdate update = target.apply(result, clockMs + 5);
        target = update.after();
        return update;
    }
}
