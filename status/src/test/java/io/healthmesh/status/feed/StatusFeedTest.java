package io.healthmesh.status.feed;

import io.healthmesh.status.board.BoardRows;
import io.healthmesh.status.board.GroupRow;
import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The feed's handling of a polled batch (no broker: the records are built here, as the consumer returns them). */
class StatusFeedTest {

    private static final long NOW = 1_700_000_600_000L;
    private static final Topics TOPICS = Topics.DEFAULT;
    private final String scope = "feed-" + UUID.randomUUID();
    private final Map<String, String> serdeConfig = Map.of("schema.registry.url", "mem://" + scope);
    private final AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, serdeConfig);
    private final StatusBoard board = new StatusBoard(10);
    private final StatusFeed feed = new StatusFeed(Map.of("bootstrap.servers", "127.0.0.1:1"), serdeConfig, TOPICS,
            board, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    private long offset;

    @AfterEach
    void close() {
        feed.close();
        serde.close();
        MemoryRegistries.drop(scope);
    }

    private byte[] result(long startedAtMs, long latencyMicros, ProbeOutcome outcome) {
        return serde.serializer().serialize(TOPICS.probeResults(), ProbeResult.newBuilder()
                .setTargetId("t-1").setGeneration(7).setRegion("eu").setProberId("prober-eu-1")
                .setProtocol(Protocol.TCP).setStartedAtMs(startedAtMs).setOutcome(outcome)
                .setLatencyMicros(latencyMicros).setDetail(outcome == ProbeOutcome.SUCCESS ? null : "refused")
                .build());
    }

    private ConsumerRecord<String, byte[]> record(int partition, long timestamp, String key, byte[] value) {
        return record(TOPICS.probeResults(), partition, timestamp, key, value);
    }

    private ConsumerRecord<String, byte[]> record(String topic, int partition, long timestamp, String key,
                                                  byte[] value) {
        return new ConsumerRecord<>(topic, partition, offset++, timestamp, TimestampType.CREATE_TIME,
                -1, -1, key, value, new RecordHeaders(), Optional.empty());
    }

    private ConsumerRecord<String, byte[]> groupEvent(AvroSerde<GroupHealth> groups, String id, boolean failOpen,
                                                      int healthy, int unhealthy, int disabled, List<String> routable,
                                                      boolean truncated) {
        GroupHealth event = GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen)
                .setMembers(healthy + unhealthy + disabled).setHealthy(healthy).setUnhealthy(unhealthy)
                .setDetecting(0).setDisabled(disabled).setRoutable(routable).setRoutableTruncated(truncated)
                .setUpdatedAtMs(NOW).build();
        return record(TOPICS.groupState(), 0, NOW, id, groups.serializer().serialize(TOPICS.groupState(), event));
    }

    private List<LatencyPoint> history() {
        return board.snapshot().targets().stream().filter(t -> t.row() != null && t.row().id().equals("t-1"))
                .findFirst().orElseThrow().history();
    }

    private void knowTarget() {
        board.putTarget(BoardRows.row("t-1", "g", "HEALTHY", false));
    }

    @Test
    void aResultBecomesALatencyPoint() {
        knowTarget();
        StatusFeed.Batch done = feed.apply(List.of(
                record(0, NOW - 1_000, "t-1", result(NOW - 1_000, 900, ProbeOutcome.SUCCESS)),
                record(0, NOW - 500, "t-1", result(NOW - 500, 1_500, ProbeOutcome.CONNECTION_REFUSED))), NOW);

        assertThat(done.retryFrom()).isEqualTo(-1);
        assertThat(done.behind()).isEmpty();
        assertThat(history()).containsExactly(new LatencyPoint(NOW - 1_000, 900, true),
                new LatencyPoint(NOW - 500, 1_500, false));
        assertThat(feed.skipped()).isZero();
        assertThat(feed.lookbackSkipped()).isZero();
    }

    @Test
    void aGroupEventGivesTheGroupsFlagAndRoutableCountFromItsCountsWithoutItsIds() {
        try (AvroSerde<GroupHealth> groups = AvroSerde.forValues(GroupHealth.class, serdeConfig)) {
            byte[] undecodable = {0, 0, 0, 0x7f, 0x7f, 2};
            StatusFeed.Batch done = feed.apply(List.of(
                    groupEvent(groups, "web", false, 2, 1, 1, List.of("a", "b", "d"), false),
                    groupEvent(groups, "down", true, 0, 4, 0, List.of("e", "f", "g", "h"), false),
                    // a huge group's event lists only its first ids: the counts still say how many are routed to
                    groupEvent(groups, "huge", false, 5_000, 10, 0, List.of("h-0001", "h-0002"), true),
                    groupEvent(groups, "gone", false, 1, 0, 0, List.of("z"), false),
                    record(TOPICS.groupState(), 0, NOW, "gone", null),
                    record(TOPICS.groupState(), 0, NOW, "broken", undecodable)), NOW);

            assertThat(done.retryFrom()).isEqualTo(-1);
            assertThat(feed.skipped()).isEqualTo(1);
            assertThat(board.groups()).extracting(GroupRow::id, GroupRow::failOpen, GroupRow::routable)
                    .containsExactlyInAnyOrder(tuple("web", false, 3), tuple("down", true, 4),
                            tuple("huge", false, 5_000));
        }
    }

    @Test
    void undecodableResultsAreSkippedAndCountedAndTheRestOfTheBatchApplied() {
        knowTarget();
        byte[] good = result(NOW - 1_000, 900, ProbeOutcome.SUCCESS);
        byte[] wrongMagic = good.clone();
        wrongMagic[0] = 1;
        byte[] unknownId = good.clone();
        unknownId[1] = 0x7f;
        StatusFeed.Batch done = feed.apply(List.of(
                record(0, NOW - 2_000, "t-1", Arrays.copyOf(good, good.length - 3)),
                record(0, NOW - 2_000, "t-1", wrongMagic),
                record(1, NOW - 2_000, "t-1", unknownId),
                record(1, NOW - 1_000, "t-1", good)), NOW);

        assertThat(done.retryFrom()).isEqualTo(-1);
        assertThat(feed.skipped()).isEqualTo(3);
        assertThat(history()).containsExactly(new LatencyPoint(NOW - 1_000, 900, true));
    }

    @Test
    void resultsOlderThanTheLookbackAreNotDecodedAndTheirPartitionIsBehind() {
        knowTarget();
        long old = NOW - StatusFeed.RESULTS_LOOKBACK.toMillis() - 1;
        byte[] garbage = {9, 9, 9}; // never decoded: it would be counted as skipped otherwise
        StatusFeed.Batch done = feed.apply(List.of(
                record(0, old, "t-1", garbage),
                record(0, old, "t-1", result(old, 5, ProbeOutcome.SUCCESS)),
                record(3, old, "t-1", result(old, 5, ProbeOutcome.SUCCESS)),
                record(3, NOW - 10, "t-1", result(NOW - 10, 42, ProbeOutcome.SUCCESS)),
                record(4, NOW - 10, "t-1", result(NOW - 10, 43, ProbeOutcome.SUCCESS))), NOW);

        assertThat(feed.skipped()).isZero();
        assertThat(feed.lookbackSkipped()).isEqualTo(3);
        // partition 3 caught up within the batch; 0 is still behind
        assertThat(done.behind()).containsExactly(0);
        assertThat(history()).extracting(LatencyPoint::micros).containsExactly(42L, 43L);
    }

    @Test
    void anUnreachableRegistryStopsTheBatchAtTheRecordToReadAgain() {
        StatusFeed offline = new StatusFeed(Map.of("bootstrap.servers", "127.0.0.1:1"),
                Map.of("schema.registry.url", "http://127.0.0.1:1"), TOPICS, board,
                Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
        try {
            knowTarget();
            byte[] good = result(NOW - 1_000, 900, ProbeOutcome.SUCCESS);
            StatusFeed.Batch done = offline.apply(List.of(
                    record(0, NOW - 1_000, null, good),
                    record(0, NOW - 1_000, "t-1", good),
                    record(0, NOW - 1_000, "t-1", good)), NOW);
            assertThat(done.retryFrom()).isEqualTo(1);
            assertThat(done.registryError()).contains("127.0.0.1:1");
            assertThat(offline.skipped()).isZero();
            assertThat(history()).isEmpty();
        } finally {
            offline.close();
        }
    }

    @Test
    void onlyAnExplicitInsecureSkipVerifyIsNoted() {
        io.healthmesh.schema.TargetDefinition.Builder d = io.healthmesh.schema.TargetDefinition.newBuilder()
                .setId("a").setAddress("10.0.0.1").setProtocol(Protocol.GRPC)
                .setGrpc(io.healthmesh.schema.GrpcCheck.newBuilder().setTls(true).build());
        assertThat(StatusFeed.tlsNote(d.build())).isNull();
        assertThat(StatusFeed.tlsNote(d.setTls(io.healthmesh.schema.TlsCheck.newBuilder().setMinCertDaysLeft(3)
                .build()).build())).isNull();
        assertThat(StatusFeed.tlsNote(d.setTls(io.healthmesh.schema.TlsCheck.newBuilder().setInsecureSkipVerify(true)
                .build()).build())).isEqualTo("insecure-skip-verify");
    }

    @Test
    void aGenericHttpsDefinitionStoredUnderTheOldDefaultIsNotedAsNotVerified() {
        io.healthmesh.schema.TargetDefinition.Builder d = io.healthmesh.schema.TargetDefinition.newBuilder()
                .setId("a").setAddress("10.0.0.1").setProtocol(Protocol.HTTPS)
                .setHttp(io.healthmesh.schema.HttpCheck.newBuilder().build());
        // the record an old writer left: tlsVerify false, no tls section
        assertThat(StatusFeed.tlsNote(d.build())).isEqualTo("not-verified-old-default");
        assertThat(StatusFeed.tlsNote(d.setHttp(io.healthmesh.schema.HttpCheck.newBuilder().setTlsVerify(true)
                .build()).build())).isNull();
        // a product profile never verifies, as the load balancer it reproduces: no note
        assertThat(StatusFeed.tlsNote(d.setHttp(io.healthmesh.schema.HttpCheck.newBuilder().build())
                .setProfile(io.healthmesh.schema.TargetProfile.TENCENT_CLB).build())).isNull();
        assertThat(StatusFeed.tlsNote(d.setProtocol(Protocol.HTTP).setProfile(io.healthmesh.schema.TargetProfile.GENERIC)
                .build())).isNull();
    }
}
