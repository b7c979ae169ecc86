package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** BEHAVIOUR.md section 8 through the topology: per-region machines, quorum policies, the breakdown in the event. */
class MultiRegionTopologyTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);
    private static final List<String> REGIONS = List.of("ap", "eu", "us");

    @TempDir
    Path stateDir;

    private static TargetSpec with(QuorumPolicy policy) {
        return WEB.withRegions(List.of(), policy, 2);
    }

    /** One round: every region probes once, one second later than the last round. */
    private static void round(AggregatorDriver d, double second, TargetSpec spec, Map<String, Outcome> outcomes) {
        d.at(second);
        for (String region : REGIONS) {
            Outcome o = outcomes.get(region);
            if (o != null) {
                d.result(spec, region, o, 100);
            }
        }
    }

    private static Map<String, HealthStatus> breakdown(TargetHealth h) {
        return h.getRegions().stream().collect(Collectors.toMap(RegionHealth::getRegion, RegionHealth::getStatus));
    }

    private static TargetHealth last(List<TestRecord<String, TargetHealth>> events) {
        assertThat(events).isNotEmpty();
        return events.get(events.size() - 1).value();
    }

    private TargetHealth oneOfThreeLosesItsPath(QuorumPolicy policy) {
        try (AggregatorDriver d = new AggregatorDriver(stateDir.resolve(policy.name()))) {
            TargetSpec spec = with(policy);
            d.at(0).define(spec);
            double s = 1;
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, spec, Map.of("ap", Outcome.SUCCESS, "eu", Outcome.SUCCESS, "us", Outcome.SUCCESS));
            }
            TargetHealth healthy = last(d.healthEvents());
            assertThat(healthy.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(breakdown(healthy)).containsOnly(Map.entry("ap", HealthStatus.HEALTHY),
                    Map.entry("eu", HealthStatus.HEALTHY), Map.entry("us", HealthStatus.HEALTHY));
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, spec, Map.of("ap", Outcome.HOST_UNREACHABLE, "eu", Outcome.SUCCESS, "us", Outcome.SUCCESS));
            }
            TargetHealth after = last(d.healthEvents());
            assertThat(breakdown(after)).containsEntry("ap", HealthStatus.UNHEALTHY);
            assertThat(after.getQuorum()).hasToString(policy.name());
            return after;
        }
    }

    @Test
    void oneOfThreeRegionsLosesItsPathMajorityStaysHealthy() {
        assertThat(oneOfThreeLosesItsPath(QuorumPolicy.MAJORITY).getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(oneOfThreeLosesItsPath(QuorumPolicy.AT_LEAST).getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(oneOfThreeLosesItsPath(QuorumPolicy.ANY).getStatus()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void oneOfThreeRegionsLosesItsPathAllTurnsUnhealthy() {
        TargetHealth h = oneOfThreeLosesItsPath(QuorumPolicy.ALL);
        assertThat(h.getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(h.getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void twoRegionsFlappingOutOfPhaseDoNotFlipTheOverallStatus() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            double s = 1;
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, WEB, Map.of("ap", Outcome.SUCCESS, "eu", Outcome.SUCCESS, "us", Outcome.SUCCESS));
            }
            d.healthEvents();
            for (int phase = 0; phase < 6; phase++) {
                boolean euDown = phase % 2 == 0;
                for (int i = 0; i < 4; i++, s++) {
                    round(d, s, WEB, Map.of("ap", Outcome.SUCCESS,
                            "eu", euDown ? Outcome.TIMEOUT : Outcome.SUCCESS,
                            "us", euDown ? Outcome.SUCCESS : Outcome.TIMEOUT));
                }
            }
            List<TestRecord<String, TargetHealth>> events = d.healthEvents();
            // the regions did flap: the breakdown changed many times, and each change was reported
            assertThat(events.size()).isGreaterThanOrEqualTo(10);
            assertThat(events).extracting(e -> breakdown(e.value()).get("eu"))
                    .contains(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
            assertThat(events).extracting(e -> e.value().getStatus()).containsOnly(HealthStatus.HEALTHY);
            assertThat(d.groups.readRecordsToList()).extracting(r -> r.value().getRoutable())
                    .allSatisfy(routable -> assertThat(routable).containsExactly("web-1"));
        }
    }

    @Test
    void aRegionWhoseProbersStopGoesStaleInTheBreakdownAndDoesNotTurnTheTargetUnhealthy() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            double s = 1;
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, WEB, Map.of("ap", Outcome.TIMEOUT, "eu", Outcome.SUCCESS, "us", Outcome.SUCCESS));
            }
            assertThat(last(d.healthEvents()).getStatus()).isEqualTo(HealthStatus.HEALTHY);
            // eu stops: us (HEALTHY) and ap (UNHEALTHY) go on, every 5 s, for a minute
            for (int i = 0; i < 12; i++, s += 5) {
                round(d, s, WEB, Map.of("ap", Outcome.TIMEOUT, "us", Outcome.SUCCESS));
            }
            List<TestRecord<String, TargetHealth>> events = d.healthEvents();
            TargetHealth h = last(events);
            assertThat(h.getRegions()).filteredOn(r -> r.getRegion().equals("eu"))
                    .singleElement().satisfies(r -> assertThat(r.getStale()).isTrue());
            assertThat(h.getStale()).as("other regions still vote").isFalse();
            assertThat(events).extracting(e -> e.value().getStatus()).containsOnly(HealthStatus.HEALTHY);
        }
    }

    @Test
    void whenNoRegionVotesTheStatusStaysAndTheEventSaysStale() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            double s = 1;
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, WEB, Map.of("ap", Outcome.TIMEOUT, "eu", Outcome.TIMEOUT, "us", Outcome.TIMEOUT));
            }
            assertThat(last(d.healthEvents()).getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
            d.at(s + 60);
            TargetHealth stale = last(d.healthEvents());
            assertThat(stale.getStale()).isTrue();
            assertThat(stale.getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(stale.getRegions()).allSatisfy(r -> assertThat(r.getStale()).isTrue());
        }
    }

    @Test
    void resultsFromRegionsTheTargetDoesNotListAreRejected() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            TargetSpec listed = WEB.withRegions(List.of("eu"), QuorumPolicy.MAJORITY, 1);
            d.at(0).define(listed);
            double s = 1;
            for (int i = 0; i < 3; i++, s++) {
                round(d, s, listed, Map.of("ap", Outcome.TIMEOUT, "eu", Outcome.SUCCESS));
            }
            TargetHealth h = last(d.healthEvents());
            assertThat(h.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(breakdown(h)).containsOnlyKeys("eu");
            assertThat(d.metric(AggregatorMetrics.REJECTED, "UNLISTED_REGION")).isEqualTo(3);
            assertThat(d.rejected.readRecordsToList()).hasSize(3);
        }
    }
}
