package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.healthmesh.aggregator.topology.AggregatorDriver.EPOCH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result read before its target's definition (BEHAVIOUR.md section 9, "Results read before their definition"):
 * held, then applied when the definition comes, or rejected as UNKNOWN_TARGET once it is plain that none will.
 */
class UnknownTargetHoldTopologyTest {

    /** Healthy after 3 successes, a result every 5 s. */
    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);
    private static final TargetSpec OTHER = TargetSpec.of("web-2", "pool", "10.0.0.2", 80, Protocol.HTTP);

    @TempDir
    Path stateDir;
    private AggregatorDriver d;

    @AfterEach
    void stop() {
        if (d != null) {
            d.close();
        }
    }

    private AggregatorDriver driver(Map<String, String> settings) {
        d = new AggregatorDriver(stateDir, settings);
        return d;
    }

    private static String header(TestRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private List<HealthStatus> statuses() {
        return d.healthEvents().stream().map(TestRecord::value).map(TargetHealth::getStatus).toList();
    }

    @Test
    void aResultReadBeforeItsDefinitionCountsOnceTheDefinitionIsRead() {
        driver(Map.of()).at(1);
        // probed at 1 s, after the definition written at 0.5 s; the aggregator reads the result first
        d.resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        assertThat(d.rejected.isEmpty()).isTrue();
        assertThat(d.health.isEmpty()).isTrue();
        d.at(2).defineStamped(WEB, EPOCH + 500);
        d.at(6).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 6_000);
        assertThat(statuses()).containsExactly(HealthStatus.DETECTING);
        d.at(11).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 11_000);
        assertThat(statuses()).as("decided at the third probe, the first one included").containsExactly(
                HealthStatus.HEALTHY);
        assertThat(d.rejected.isEmpty()).isTrue();
        assertThat(d.metric(AggregatorMetrics.UNKNOWN_TARGET_RESULTS, "held")).isEqualTo(1);
        assertThat(d.metric(AggregatorMetrics.UNKNOWN_TARGET_RESULTS, "applied")).isEqualTo(1);
    }

    @Test
    void aResultStampedBeforeTheDefinitionItWaitedForIsRejectedAsItCame() {
        driver(Map.of()).at(1);
        d.resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 100);
        d.at(2).defineStamped(WEB, EPOCH + 500);
        TestRecord<byte[], byte[]> r = d.rejected.readRecord();
        assertThat(header(r, RejectedHeaders.REASON)).isEqualTo("UNKNOWN_TARGET");
        assertThat(header(r, RejectedHeaders.DETAIL)).contains("before the definition");
        assertThat(header(r, RejectedHeaders.SOURCE_TOPIC)).isEqualTo(d.config.topics().probeResults());
        assertThat(header(r, RejectedHeaders.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(r.timestamp()).isEqualTo(EPOCH + 100);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("web-1");
        assertThat(d.rejected.isEmpty()).isTrue();
        assertThat(statuses()).containsExactly(HealthStatus.DETECTING);
    }

    @Test
    void aResultWhoseDefinitionNeverComesIsRejectedOnceDefinitionsWrittenAfterItAreRead() {
        driver(Map.of()).define(OTHER);
        d.at(1).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        d.at(60);
        assertThat(d.rejected.isEmpty()).as("quiet definitions say nothing: the definition may be late").isTrue();
        d.at(61).define(TargetSpec.of("web-3", "pool", "10.0.0.3", 80, Protocol.HTTP));
        d.at(62);
        TestRecord<byte[], byte[]> r = d.rejected.readRecord();
        assertThat(header(r, RejectedHeaders.REASON)).isEqualTo("UNKNOWN_TARGET");
        assertThat(header(r, RejectedHeaders.DETAIL)).startsWith("targetId: web-1 (expected: a target defined in");
        assertThat(header(r, RejectedHeaders.SOURCE_TOPIC)).isEqualTo(d.config.topics().probeResults());
        assertThat(d.rejected.isEmpty()).isTrue();
        // its definition comes after all: it starts from scratch
        d.healthEvents();
        d.at(63).define(WEB);
        assertThat(statuses()).containsExactly(HealthStatus.DETECTING);
        assertThat(d.metric(AggregatorMetrics.UNKNOWN_TARGET_RESULTS, "applied")).isZero();
    }

    @Test
    void definitionsReadWellPastAResultSettleItWithoutWaiting() {
        driver(Map.of()).at(1).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        d.at(2).defineStamped(OTHER, EPOCH + 31_000);
        d.at(3);
        assertThat(d.rejected.readRecordsToList()).singleElement()
                .satisfies(r -> assertThat(header(r, RejectedHeaders.REASON)).isEqualTo("UNKNOWN_TARGET"));
    }

    @Test
    void definitionsStillComingKeepItWaiting() {
        driver(Map.of()).at(1).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        for (int s = 2; s <= 90; s++) {
            // a backlog of definitions written before the result, read one a second
            d.at(s).defineStamped(TargetSpec.of("t-" + s, "pool", "10.0.1." + s, 80, Protocol.HTTP), EPOCH + 900);
        }
        d.healthEvents();
        assertThat(d.rejected.isEmpty()).isTrue();
        d.at(91).defineStamped(WEB, EPOCH + 950);
        assertThat(d.metric(AggregatorMetrics.UNKNOWN_TARGET_RESULTS, "applied")).isEqualTo(1);
        assertThat(d.rejected.isEmpty()).isTrue();
    }

    @Test
    void aDeletionRejectsWhatWasHeldForTheTarget() {
        driver(Map.of()).at(1).resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        d.at(2).delete(WEB.id());
        assertThat(d.rejected.readRecordsToList()).singleElement()
                .satisfies(r -> assertThat(header(r, RejectedHeaders.DETAIL)).contains("deleted"));
        assertThat(d.health.isEmpty()).isTrue();
    }

    @Test
    void aFullHoldAndAHoldSwitchedOffRejectAtOnce() {
        driver(Map.of("unknown.target.hold.max", "1")).at(1);
        d.resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        assertThat(d.rejected.isEmpty()).isTrue();
        d.resultStamped(OTHER, "default", Outcome.SUCCESS, EPOCH + 1_000);
        assertThat(d.rejected.readRecordsToList()).singleElement()
                .satisfies(r -> assertThat(header(r, RejectedHeaders.DETAIL)).contains("the hold is full"));
        d.close();
        d = null;
        driver(Map.of("unknown.target.hold.ms", "0")).at(1);
        d.resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        assertThat(d.rejected.readRecordsToList()).singleElement()
                .satisfies(r -> assertThat(header(r, RejectedHeaders.DETAIL)).contains("unknown.target.hold.ms is 0"));
        assertThat(d.metric(AggregatorMetrics.UNKNOWN_TARGET_RESULTS, "held")).isZero();
    }

    @Test
    void theLongestHoldEndsTheWait() {
        driver(Map.of("unknown.target.hold.ms", "5000")).at(1);
        // definitions still coming, all written before the result: only the longest hold ends its wait
        d.resultStamped(WEB, "default", Outcome.SUCCESS, EPOCH + 1_000);
        for (int s = 2; s <= 5; s++) {
            d.at(s).defineStamped(TargetSpec.of("t-" + s, "pool", "10.0.1." + s, 80, Protocol.HTTP), EPOCH + 900);
        }
        assertThat(d.rejected.isEmpty()).isTrue();
        d.at(7);
        assertThat(d.rejected.readRecordsToList()).hasSize(1);
    }
}
