package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 8 on the real broker: probers in two regions ({@code a} and {@code b}, each its own consumer group) and one
 * aggregator. Region {@code b} cannot reach the backend on 127.0.0.2: its prober's deny list covers exactly that
 * address, so its probes end in BLOCKED_BY_POLICY while region {@code a} reaches it; a second backend on 127.0.0.1
 * is reachable from both.
 *
 * <p>The rule asserted is the one {@code io.healthmesh.aggregator.domain.QuorumRule} documents: with {@code h}
 * HEALTHY and {@code d} DETECTING voters out of {@code n}, and {@code s} silent (stale) regions, a target is HEALTHY
 * when {@code h >= q(n)}, UNHEALTHY when {@code h + d + s < q(n + s)}, else it keeps a decided status. So with a
 * HEALTHY and b UNHEALTHY, {@code ANY} ({@code q = 1}) is HEALTHY and {@code ALL} ({@code q(2) = 2}) UNHEALTHY; once
 * b's probers all stop, b goes stale after {@code 3 x interval + timeout}, stops voting, and the remaining voter
 * decides: {@code ALL} with {@code q(1) = 1} turns HEALTHY again, and no target turns UNHEALTHY.
 */
@ExtendWith(KafkaExtension.class)
class MultiRegionIT {

    private static final Logger LOG = LoggerFactory.getLogger(MultiRegionIT.class);
    private static final int INTERVAL_MS = 1_000;
    private static final int TIMEOUT_MS = 500;
    private static final int THRESHOLD = 2;
    private static final long PIPELINE_SLACK_MS = 1_000;
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    /** Reachable from region a only: region b's deny list covers this address and nothing else on loopback. */
    private static final String ONLY_FROM_A = "127.0.0.2";
    private static final String FROM_EVERYWHERE = "127.0.0.1";

    @TempDir
    Path stateDir;

    @Test
    @Timeout(90)
    void quorumCombinesTheRegionsAndARegionWhoseProbersAllStopTurnsNothingUnhealthy(TestKafka kafka) {
        try (LoopbackHttpBackend onlyFromA = LoopbackHttpBackend.start(ONLY_FROM_A);
             LoopbackHttpBackend fromEverywhere = LoopbackHttpBackend.start(FROM_EVERYWHERE);
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            String a = pipeline.region("a");
            String b = pipeline.region("b");
            pipeline.startProber("a", List.of());
            pipeline.define(http("any", onlyFromA, QuorumPolicy.ANY));
            pipeline.define(http("all", onlyFromA, QuorumPolicy.ALL));
            pipeline.define(http("shared", fromEverywhere, QuorumPolicy.ALL));
            for (String id : List.of("any", "all", "shared")) {
                awaitEvent(pipeline, id, 0L, e -> e.getStatus() == HealthStatus.HEALTHY, "HEALTHY from region a",
                        Pipeline.STARTUP);
            }

            long bStartedAt = System.currentTimeMillis();
            pipeline.startProber("b", List.of(ONLY_FROM_A + "/32"));

            // ALL: region b's firm UNHEALTHY vote makes the quorum unreachable
            TargetHealth all = awaitEvent(pipeline, "all", bStartedAt,
                    e -> e.getStatus() == HealthStatus.UNHEALTHY, "UNHEALTHY once region b fails").value();
            assertThat(all.getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(all.getQuorum()).isEqualTo(io.healthmesh.schema.QuorumPolicy.ALL);
            assertRegion(all, a, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false);
            assertRegion(all, b, HealthStatus.UNHEALTHY, ProbeOutcome.BLOCKED_BY_POLICY, false);
            // ANY: region a's HEALTHY vote is enough; the breakdown changes, the status does not
            TargetHealth any = awaitEvent(pipeline, "any", bStartedAt,
                    e -> regionStatus(e, b) == HealthStatus.UNHEALTHY, "region b UNHEALTHY in the breakdown").value();
            assertThat(any.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertRegion(any, a, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false);
            assertRegion(any, b, HealthStatus.UNHEALTHY, ProbeOutcome.BLOCKED_BY_POLICY, false);
            // ALL over two regions that both reach the backend: HEALTHY throughout
            TargetHealth shared = awaitEvent(pipeline, "shared", bStartedAt,
                    e -> regionStatus(e, b) == HealthStatus.HEALTHY, "region b HEALTHY in the breakdown").value();
            assertThat(shared.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertRegion(shared, a, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false);

            // the query API shows the same breakdown
            JsonNode allView = awaitView(pipeline, "all", v -> "UNHEALTHY".equals(regionField(v, b, "status")));
            assertThat(allView.get("status").asText()).isEqualTo("UNHEALTHY");
            assertThat(allView.get("quorum").asText()).isEqualTo("ALL");
            assertView(allView, a, "HEALTHY", "SUCCESS", false);
            assertView(allView, b, "UNHEALTHY", "BLOCKED_BY_POLICY", false);
            JsonNode anyView = awaitView(pipeline, "any", v -> "UNHEALTHY".equals(regionField(v, b, "status")));
            assertThat(anyView.get("status").asText()).isEqualTo("HEALTHY");
            assertThat(anyView.get("quorum").asText()).isEqualTo("ANY");
            assertView(anyView, a, "HEALTHY", "SUCCESS", false);
            assertView(anyView, b, "UNHEALTHY", "BLOCKED_BY_POLICY", false);

            long bStoppedAt = pipeline.stopProber("b");
            long staleAfter = pipeline.aggregatorConfig().staleness().windowMs(INTERVAL_MS, TIMEOUT_MS);
            long bound = staleAfter + pipeline.aggregatorConfig().punctuateInterval().toMillis() + PIPELINE_SLACK_MS;
            // ALL: b is silent, the remaining voter a is HEALTHY and q(1) = 1
            Received<TargetHealth> allBack = awaitEvent(pipeline, "all", bStoppedAt,
                    e -> e.getStatus() == HealthStatus.HEALTHY, "HEALTHY once region b is stale");
            assertThat(allBack.value().getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(allBack.value().getStale()).as("the target is not stale: region a still votes").isFalse();
            assertRegion(allBack.value(), a, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false);
            assertRegion(allBack.value(), b, HealthStatus.UNHEALTHY, ProbeOutcome.BLOCKED_BY_POLICY, true);
            long lastFromB = pipeline.results().of("all").stream().map(Received::value)
                    .filter(r -> r.getRegion().equals(b))
                    .mapToLong(r -> r.getStartedAtMs() + r.getLatencyMicros() / 1_000).max().orElseThrow();
            LOG.info("measured: region b stopped, the ALL target HEALTHY again {} ms later, {} ms after b's last result"
                    + " (staleness {} ms, bound {} ms)", allBack.receivedAtMs() - bStoppedAt,
                    allBack.value().getUpdatedAtMs() - lastFromB, staleAfter, bound);
            assertThat(allBack.value().getUpdatedAtMs() - lastFromB)
                    .as("ms from region b's last result to the aggregator dropping its vote (never before staleness)")
                    .isGreaterThan(staleAfter);
            assertThat(allBack.receivedAtMs() - bStoppedAt).as("ms from region b's stop to the ALL target HEALTHY")
                    .isLessThanOrEqualTo(bound);
            for (String id : List.of("any", "shared")) {
                TargetHealth quiet = awaitEvent(pipeline, id, bStoppedAt, e -> regionStale(e, b),
                        "region b stale in the breakdown").value();
                assertThat(quiet.getStatus()).as(id).isEqualTo(HealthStatus.HEALTHY);
                assertThat(quiet.getStale()).as(id + " stale").isFalse();
            }
            JsonNode allAfter = awaitView(pipeline, "all", v -> "HEALTHY".equals(v.get("status").asText()));
            assertView(allAfter, b, "UNHEALTHY", "BLOCKED_BY_POLICY", true);
            assertView(allAfter, a, "HEALTHY", "SUCCESS", false);

            // nothing turned UNHEALTHY because region b stopped; ANY and the reachable ALL target never left HEALTHY
            for (String id : List.of("any", "all", "shared")) {
                assertThat(pipeline.health().of(id)).as(id + ": events after region b stopped")
                        .filteredOn(r -> r.receivedAtMs() >= bStoppedAt)
                        .allSatisfy(r -> assertThat(r.value().getStatus()).isEqualTo(HealthStatus.HEALTHY));
            }
            for (String id : List.of("any", "shared")) {
                List<HealthStatus> statuses = pipeline.health().of(id).stream().map(r -> r.value().getStatus()).toList();
                int healthyFrom = statuses.indexOf(HealthStatus.HEALTHY);
                assertThat(statuses.subList(0, healthyFrom)).as(id + ": statuses before the first HEALTHY")
                        .containsOnly(HealthStatus.DETECTING);
                assertThat(statuses.subList(healthyFrom, statuses.size())).as(id + ": statuses from the first HEALTHY on")
                        .containsOnly(HealthStatus.HEALTHY);
            }
        }
    }

    @Test
    @Timeout(90)
    void aTargetListingOneRegionIsProbedOnlyByThatRegion(TestKafka kafka) {
        try (LoopbackHttpBackend backend = LoopbackHttpBackend.start(FROM_EVERYWHERE);
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            String a = pipeline.region("a");
            String b = pipeline.region("b");
            ProberWorker proberA = pipeline.startProber("a", List.of());
            ProberWorker proberB = pipeline.startProber("b", List.of());
            pipeline.define(http("everywhere", backend, QuorumPolicy.MAJORITY));
            pipeline.define(http("only-a", backend, QuorumPolicy.MAJORITY).withRegions(List.of(a), QuorumPolicy.MAJORITY, 1));

            Set<String> seenByB = new HashSet<>();
            Await.until(Pipeline.STARTUP, () -> {
                seenByB.addAll(proberB.probedTargets());
                return results(pipeline, "everywhere", a) >= 3 && results(pipeline, "everywhere", b) >= 3
                        && results(pipeline, "only-a", a) >= 3;
            }, () -> "results: " + pipeline.results().all().size());
            awaitEvent(pipeline, "only-a", 0L, e -> e.getStatus() == HealthStatus.HEALTHY, "HEALTHY", PATIENCE);

            assertThat(seenByB).as("targets region b's prober probed").contains("everywhere").doesNotContain("only-a");
            assertThat(proberB.probedTargets()).containsExactly("everywhere");
            assertThat(proberA.probedTargets()).containsExactlyInAnyOrder("everywhere", "only-a");
            assertThat(pipeline.results().of("only-a")).as("results of only-a")
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.value().getRegion()).isEqualTo(a));
            JsonNode onlyA = awaitView(pipeline, "only-a", v -> "HEALTHY".equals(v.get("status").asText()));
            assertThat(onlyA.get("regions")).hasSize(1);
            assertThat(onlyA.get("regions").get(0).get("region").asText()).isEqualTo(a);
            JsonNode everywhere = awaitView(pipeline, "everywhere", v -> v.get("regions").size() == 2);
            assertThat(everywhere.get("regions").findValuesAsText("region")).containsExactlyInAnyOrder(a, b);
        }
    }

    private static TargetSpec http(String id, LoopbackHttpBackend backend, QuorumPolicy quorum) {
        return TargetSpec.of(id, "regional", backend.host(), backend.port(), Protocol.HTTP)
                .withTiming(INTERVAL_MS, TIMEOUT_MS)
                .withThresholds(THRESHOLD, THRESHOLD)
                .withRegions(List.of(), quorum, 1);
    }

    private static long results(Pipeline pipeline, String id, String region) {
        return pipeline.results().of(id).stream().map(Received::value).map(ProbeResult::getRegion)
                .filter(region::equals).count();
    }

    /** The first event of {@code id} received at or after {@code notBeforeMs} that matches. */
    private static Received<TargetHealth> awaitEvent(Pipeline pipeline, String id, long notBeforeMs,
                                                     Predicate<TargetHealth> matching, String what) {
        return awaitEvent(pipeline, id, notBeforeMs, matching, what, PATIENCE);
    }

    /**
     * As above with a given patience: the first events of a new aggregator may wait for its first exactly-once
     * transactions.
     */
    private static Received<TargetHealth> awaitEvent(Pipeline pipeline, String id, long notBeforeMs,
                                                     Predicate<TargetHealth> matching, String what,
                                                     Duration patience) {
        return Await.value(patience, () -> pipeline.health().of(id).stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null && matching.test(r.value()))
                        .findFirst(),
                () -> id + " never " + what + "; events: "
                        + pipeline.health().of(id).stream().map(r -> String.valueOf(r.value())).toList());
    }

    /** {@code GET /targets/{id}} until the view matches. */
    private static JsonNode awaitView(Pipeline pipeline, String id, Predicate<JsonNode> matching) {
        return Await.value(PATIENCE, () -> pipeline.queryTarget(id).filter(matching),
                () -> "GET /targets/" + id + " never matched; last: " + pipeline.queryTarget(id).orElse(null));
    }

    private static Optional<RegionHealth> region(TargetHealth event, String region) {
        return event.getRegions().stream().filter(r -> r.getRegion().equals(region)).findFirst();
    }

    private static HealthStatus regionStatus(TargetHealth event, String region) {
        return region(event, region).map(RegionHealth::getStatus).orElse(null);
    }

    private static boolean regionStale(TargetHealth event, String region) {
        return region(event, region).map(RegionHealth::getStale).orElse(false);
    }

    private static void assertRegion(TargetHealth event, String region, HealthStatus status, ProbeOutcome lastOutcome,
                                     boolean stale) {
        RegionHealth r = region(event, region).orElseThrow(() -> new AssertionError(
                event.getTargetId() + ": no region " + region + " in " + event.getRegions()));
        assertThat(r.getStatus()).as(event.getTargetId() + " region " + region + " status").isEqualTo(status);
        assertThat(r.getLastOutcome()).as(event.getTargetId() + " region " + region + " last outcome")
                .isEqualTo(lastOutcome);
        assertThat(r.getStale()).as(event.getTargetId() + " region " + region + " stale").isEqualTo(stale);
    }

    private static String regionField(JsonNode view, String region, String field) {
        for (JsonNode r : view.get("regions")) {
            if (r.get("region").asText().equals(region)) {
                return r.get(field).asText();
            }
        }
        return null;
    }

    private static void assertView(JsonNode view, String region, String status, String lastOutcome, boolean stale) {
        String what = view.get("targetId").asText() + " region " + region + " in GET /targets";
        assertThat(regionField(view, region, "status")).as(what + " status").isEqualTo(status);
        assertThat(regionField(view, region, "lastOutcome")).as(what + " last outcome").isEqualTo(lastOutcome);
        assertThat(regionField(view, region, "stale")).as(what + " stale").isEqualTo(Boolean.toString(stale));
    }
}
