package io.healthmesh.status.feed;

import io.healthmesh.status.board.BoardRows;
import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status feed on the real broker: results are charted, and a backlog of results older than the lookback that
 * arrives while the feed runs (the feed is that far behind) is passed over undecoded: sought forward past, counted;
 * a board that keeps no latency history ({@code status.history.size=0}) has the feed read no result at all.
 */
@ExtendWith(KafkaExtension.class)
class StatusFeedIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int BACKLOG = 1_200;
    private static final long LAG_MS = Duration.ofMinutes(10).toMillis();

    /** The system clock, {@link #lagMs} behind: the feed's time, which the test moves on. */
    private static final class LaggingClock extends Clock {
        volatile long lagMs = LAG_MS;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() - lagMs;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    @Test
    @Timeout(90)
    void aBacklogOlderThanTheLookbackIsSkippedNotDecoded(TestKafka kafka) throws Exception {
        Topics topics = new Topics(kafka.uniqueTopic("feed") + ".");
        kafka.createTopic(topics.healthState(), 1, true);
        kafka.createTopic(topics.groupState(), 1, true);
        kafka.createTopic(topics.targets(), 1, true);
        kafka.createTopic(topics.probeResults(), 1, false);
        StatusBoard board = new StatusBoard(10);
        LaggingClock feedClock = new LaggingClock();
        board.putTarget(BoardRows.row("t-1", "g", "HEALTHY", false));
        Map<String, Object> producerConfig = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5);
        Map<String, Object> transactionalConfig = new HashMap<>(producerConfig);
        transactionalConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topics.prefix() + "backlog");
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
             KafkaProducer<String, byte[]> producer =
                     new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
             KafkaProducer<String, byte[]> transactional = new KafkaProducer<>(transactionalConfig,
                     new StringSerializer(), new ByteArraySerializer());
             StatusFeed feed = new StatusFeed(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                     kafka.serdeConfig(), topics, board, feedClock).start()) {
            transactional.initTransactions();
            long now = System.currentTimeMillis();
            // a first result: once it is on the board the feed is assigned and reading
            producer.send(new ProducerRecord<>(topics.probeResults(), 0, now - LAG_MS, "t-1",
                    result(serde, topics, now - LAG_MS, 1))).get();
            Await.until(PATIENCE, () -> micros(board).contains(1L), () -> "first result on the board: " + micros(board));

            // the backlog, in time order after it: results whose bytes are not even a record (decoding one would count
            // it as skipped), then one result stamped now, all in one transaction; the feed's clock jumps to now before
            // the commit: it sees them at once, 10 minutes late, as a feed that fell behind would
            transactional.beginTransaction();
            for (int i = 0; i < BACKLOG; i++) {
                transactional.send(new ProducerRecord<>(topics.probeResults(), 0, now - LAG_MS + 1 + i, "t-1",
                        new byte[] {9, 9, 9}));
            }
            transactional.send(new ProducerRecord<>(topics.probeResults(), 0, now, "t-1", result(serde, topics, now, 2)));
            transactional.flush();
            feedClock.lagMs = 0;
            transactional.commitTransaction();

            Await.until(PATIENCE, () -> micros(board).contains(2L), () -> "fresh result on the board: " + micros(board));
            assertThat(feed.skipped()).as("records decoded and refused").isZero();
            // the seek lands on the result stamped now, before the commit marker: the offsets jumped are all results
            assertThat(feed.lookbackSkipped()).isEqualTo(BACKLOG);
            // at most 500 records a poll (the consumer's default): the first batch of the backlog is all old
            assertThat(feed.lookbackSeeks()).as("partitions sought forward").isPositive();
            assertThat(micros(board)).containsExactly(1L, 2L);
        }
    }

    @Test
    @Timeout(90)
    void aBoardWithoutHistoryReadsTheStatesButNoProbeResult(TestKafka kafka) throws Exception {
        Topics topics = new Topics(kafka.uniqueTopic("nohistory") + ".");
        kafka.createTopic(topics.healthState(), 2, true);
        kafka.createTopic(topics.groupState(), 1, true);
        kafka.createTopic(topics.targets(), 1, true);
        kafka.createTopic(topics.probeResults(), 3, false);
        StatusBoard board = new StatusBoard(0);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new ByteArraySerializer());
             StatusFeed feed = new StatusFeed(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                     kafka.serdeConfig(), topics, board, Clock.systemUTC()).start()) {
            // bytes that are no record: whatever the feed reads of them it counts as skipped
            producer.send(new ProducerRecord<>(topics.probeResults(), 0, "t-1", new byte[] {9, 9, 9})).get();
            producer.send(new ProducerRecord<>(topics.healthState(), 0, "t-1", new byte[] {9, 9, 9})).get();

            Await.until(PATIENCE, () -> feed.skipped() >= 1, () -> "the state record read: " + feed.skipped());
            assertThat(feed.assigned()).extracting(TopicPartition::topic)
                    .containsOnly(topics.healthState(), topics.groupState(), topics.targets())
                    .hasSize(4);
        }
    }

    private static byte[] result(AvroSerde<ProbeResult> serde, Topics topics, long startedAtMs, long micros) {
        return serde.serializer().serialize(topics.probeResults(), ProbeResult.newBuilder()
                .setTargetId("t-1").setGeneration(1).setRegion("eu").setProberId("prober-1").setProtocol(Protocol.TCP)
                .setStartedAtMs(startedAtMs).setOutcome(ProbeOutcome.SUCCESS).setLatencyMicros(micros).build());
    }

    private static List<Long> micros(StatusBoard board) {
        return board.snapshot().targets().get(0).history().stream().map(LatencyPoint::micros).toList();
    }
}
