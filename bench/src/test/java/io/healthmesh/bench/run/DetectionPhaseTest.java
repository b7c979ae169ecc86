package io.healthmesh.bench.run;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.testkit.farm.Transition;
import io.healthmesh.bench.peers.PeerStateChange;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DetectionPhaseTest {

    private static final FarmTarget A = new FarmTarget("tcp-0", Protocol.TCP, "127.1.0.1", 9000, null);
    private static final FarmTarget B = new FarmTarget("http-0-0", Protocol.HTTP, "127.1.0.2", 8080, "/p0");

    private static Map<FarmTarget, TargetSpec> specs() {
        Map<FarmTarget, TargetSpec> specOf = new LinkedHashMap<>();
        specOf.put(A, FarmSpecs.spec("det-" + A.key(), A, 1_000, 1_000, 3, 3));
        specOf.put(B, FarmSpecs.spec("det-" + B.key(), B, 1_000, 1_000, 3, 3));
        return specOf;
    }

    private static StateTap.StateEvent event(FarmTarget t, String status, long receivedMicros) {
        return new StateTap.StateEvent("det-" + t.key(), status, status.equals("HEALTHY") ? "UNHEALTHY" : "HEALTHY",
                false, receivedMicros / 1_000 - 100, 500L, receivedMicros / 1_000 - 20, receivedMicros);
    }

    @Test
    void recoveredOnlyOnceEveryTargetIsBackUpAndReportedSoByBoth() {
        Map<FarmTarget, TargetSpec> specOf = specs();
        List<Transition> flips = new ArrayList<>(List.of(
                new Transition(A, false, 1_000_000, 0), new Transition(B, false, 1_500_000, 0),
                new Transition(A, true, 6_000_000, 0)));
        List<StateTap.StateEvent> events = new ArrayList<>(List.of(
                event(A, "UNHEALTHY", 3_200_000), event(B, "UNHEALTHY", 3_700_000), event(A, "HEALTHY", 8_200_000)));
        List<PeerStateChange> haproxy = new ArrayList<>(List.of(new PeerStateChange(A, true, 8_100_000)));

        // B has not come back up yet
        assertThat(DetectionPhase.allRecovered(specOf, 0, flips, events, haproxy)).isFalse();

        flips.add(new Transition(B, true, 6_500_000, 0));
        events.add(event(B, "HEALTHY", 8_800_000));
        // HAProxy has not reported B UP yet
        assertThat(DetectionPhase.allRecovered(specOf, 0, flips, events, haproxy)).isFalse();

        haproxy.add(new PeerStateChange(B, true, 8_600_000));
        assertThat(DetectionPhase.allRecovered(specOf, 0, flips, events, haproxy)).isTrue();
    }

    @Test
    void reportsFromBeforeTheReturnDoNotCount() {
        Map<FarmTarget, TargetSpec> specOf = specs();
        List<Transition> flips = List.of(
                new Transition(A, false, 1_000_000, 0), new Transition(A, true, 6_000_000, 0),
                new Transition(B, false, 1_000_000, 0), new Transition(B, true, 6_000_000, 0));
        // the HEALTHY events and UP lines are from before the flips (the targets' first start)
        List<StateTap.StateEvent> events = List.of(event(A, "HEALTHY", 500_000), event(B, "HEALTHY", 500_000));
        List<PeerStateChange> haproxy = List.of(new PeerStateChange(A, true, 400_000),
                new PeerStateChange(B, true, 400_000));

        assertThat(DetectionPhase.allRecovered(specOf, 0, flips, events, haproxy)).isFalse();
        // and flips before the phase started are not this phase's
        assertThat(DetectionPhase.allRecovered(specOf, 2_000_000, flips, List.of(
                event(A, "HEALTHY", 7_000_000), event(B, "HEALTHY", 7_000_000)), List.of(
                new PeerStateChange(A, true, 7_000_000), new PeerStateChange(B, true, 7_000_000)))).isFalse();
    }
}
