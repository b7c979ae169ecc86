package io.healthmesh.status.feed;

import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.RegionRow;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.board.TargetRow;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.read.CompactedTopicReader;
import io.healthmesh.contract.read.ReaderLoop;
import io.healthmesh.contract.read.ReaderRetry;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.GroupRouting;
import io.healthmesh.contract.serde.GroupRoutingDeserializer;
import io.healthmesh.contract.serde.ProbeSample;
import io.healthmesh.contract.serde.ProbeSampleDeserializer;
import io.healthmesh.contract.serde.RecordDecodeException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * Fills a {@link StatusBoard} from Kafka on its own thread: the compacted {@code health-state}, {@code group-state}
 * and {@code targets} topics from the beginning (the whole current state), and {@code probe-results} from
 * {@link #RESULTS_LOOKBACK} ago (the recent latencies; not at all when the board keeps no history). It reads every
 * partition without a consumer group ({@code read_committed}), so every instance serving the page has the whole
 * picture (an aggregator's, not only the targets its tasks own). A record that cannot be decoded is skipped and counted; a registry that
 * cannot be reached pauses the feed and the record is read again.
 * <p>
 * A probe result is read only for its latency point: {@link ProbeSampleDeserializer} takes {@code startedAtMs},
 * {@code latencyMicros} and {@code outcome} and decodes nothing else; a group event only for its id, fail-open flag
 * and counts ({@link GroupRoutingDeserializer}: its routable ids are skipped). A result whose record timestamp is
 * older than {@link #RESULTS_LOOKBACK} is not decoded at all, and a results partition on which the feed finds itself
 * that far behind is sought forward to the lookback window ({@link ResultsLookback}); both are counted in
 * {@link #lookbackSkipped()}. A failure of Kafka itself (a broker that does not answer within a call's timeout) is
 * retried by its {@link ReaderLoop} with {@link ReaderRetry}'s backoff from where the feed stood: the page never
 * stops updating for good.
 */
public final class StatusFeed implements AutoCloseable {

    /** How far back probe results are read at start, for the latency histories. */
    public static final Duration RESULTS_LOOKBACK = Duration.ofMinutes(2);
    private static final Logger LOG = LoggerFactory.getLogger(StatusFeed.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration KAFKA_CALL = Duration.ofSeconds(10);

    private final Topics topics;
    private final StatusBoard board;
    private final Clock clock;
    private final AvroSerde<TargetHealth> healthSerde;
    private final GroupRoutingDeserializer groups;
    private final AvroSerde<TargetDefinition> definitionSerde;
    private final ProbeSampleDeserializer samples;
    private final ResultsLookback lookback = new ResultsLookback(RESULTS_LOOKBACK);
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong lookbackSkipped = new AtomicLong();
    private final AtomicLong lookbackSeeks = new AtomicLong();
    private final ReaderLoop<String, byte[]> loop;
    /** The loop's consumer, set on its thread before the first assignment. */
    private KafkaConsumer<String, byte[]> consumer;
    private volatile List<TopicPartition> assigned = List.of();

    /**
     * @param kafka client settings (bootstrap servers, security); group, offsets and isolation are set here
     */
    public StatusFeed(Map<String, String> kafka, Map<String, ?> serdeConfig, Topics topics, StatusBoard board,
                      Clock clock) {
        this.topics = requireNonNull(topics, "topics");
        this.board = requireNonNull(board, "board");
        this.clock = requireNonNull(clock, "clock");
        Properties props = CompactedTopicReader.withoutGroup(requireNonNull(kafka, "kafka"));
        props.put(ConsumerConfig.CLIENT_ID_CONFIG,
                "healthmesh-status-feed-" + UUID.randomUUID().toString().substring(0, 8));
        healthSerde = AvroSerde.forValues(TargetHealth.class, serdeConfig);
        groups = GroupRoutingDeserializer.fromConfig(serdeConfig);
        definitionSerde = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
        samples = ProbeSampleDeserializer.fromConfig(serdeConfig);
        loop = new ReaderLoop<>("healthmesh-status-feed",
                () -> new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer()),
                new ReaderLoop.Reading<>() {
                    @Override
                    public void assign(KafkaConsumer<String, byte[]> c) {
                        consumer = c;
                        assignAll();
                    }

                    @Override
                    public void poll(KafkaConsumer<String, byte[]> c) {
                        pollOnce();
                    }
                }, KAFKA_CALL, ReaderRetry.DEFAULT_BACKOFF);
    }

    /** Starts the feed thread. */
    public StatusFeed start() {
        loop.start();
        return this;
    }

    /** Why the feed is not reading (a Kafka failure it retries with a backoff), or null while it reads. */
    public String waitingFor() {
        return loop.waitingFor();
    }

    /** Records skipped because they could not be decoded. */
    public long skipped() {
        return skipped.get();
    }

    /**
     * Probe results not decoded because they were older than {@link #RESULTS_LOOKBACK}: the ones read and passed
     * over, plus the offsets jumped when a partition was sought forward (transaction markers included, so an upper
     * bound of the results there).
     */
    public long lookbackSkipped() {
        return lookbackSkipped.get();
    }

    /** True once the feed has found every topic it reads and its thread still runs. */
    public boolean reading() {
        return !assigned.isEmpty() && loop.running();
    }

    /** The partitions the feed reads, once it has started (for tests). */
    List<TopicPartition> assigned() {
        return assigned;
    }

    /** How often a results partition was sought forward (for tests). */
    long lookbackSeeks() {
        return lookbackSeeks.get();
    }

    private void assignAll() {
        List<TopicPartition> compacted = new ArrayList<>();
        compacted.addAll(loop.partitionsOf(consumer, topics.healthState()));
        compacted.addAll(loop.partitionsOf(consumer, topics.groupState()));
        compacted.addAll(loop.partitionsOf(consumer, topics.targets()));
        // a board without latency histories needs no probe result: the feed then reads the compacted topics only
        List<TopicPartition> results =
                board.keepsHistory() ? loop.partitionsOf(consumer, topics.probeResults()) : List.of();
        List<TopicPartition> all = new ArrayList<>(compacted);
        all.addAll(results);
        consumer.assign(all);
        assigned = List.copyOf(all);
        consumer.seekToBeginning(compacted);
        Map<TopicPartition, Long> since = new HashMap<>();
        long from = clock.millis() - RESULTS_LOOKBACK.toMillis();
        results.forEach(p -> since.put(p, from));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(since);
        for (TopicPartition p : results) {
            OffsetAndTimestamp o = offsets.get(p);
            if (o == null) {
                consumer.seekToEnd(List.of(p));
            } else {
                consumer.seek(p, o.offset());
            }
        }
    }

    private void pollOnce() {
        List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>();
        consumer.poll(POLL).forEach(batch::add);
        long nowMs = clock.millis();
        Batch done = apply(batch, nowMs);
        if (done.retryFrom() >= 0) {
            LOG.warn("status feed paused {} ms: {}", RETRY.toMillis(), done.registryError());
            seekBack(batch.subList(done.retryFrom(), batch.size()));
            loop.pauseOrEnd(RETRY);
            return;
        }
        if (!done.behind().isEmpty()) {
            seekForward(done.behind(), nowMs);
        }
    }

    /**
     * What applying a batch left to do.
     *
     * @param retryFrom     the index of the first record not applied because the registry could not be reached, or -1
     * @param registryError why, when {@code retryFrom >= 0}
     * @param behind        the probe-results partitions whose last result in the batch was older than the lookback
     */
    record Batch(int retryFrom, String registryError, Set<Integer> behind) {
    }

    /** Applies a batch to the board: the feed thread's work between two polls, without the consumer. */
    Batch apply(List<ConsumerRecord<String, byte[]>> batch, long nowMs) {
        String results = topics.probeResults();
        Map<Integer, Boolean> lastWasOld = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            ConsumerRecord<String, byte[]> r = batch.get(i);
            if (r.topic().equals(results)) {
                boolean old = lookback.tooOld(r.timestamp(), nowMs);
                lastWasOld.put(r.partition(), old);
                if (old) {
                    lookbackSkipped.incrementAndGet();
                    continue;
                }
            }
            if (r.key() == null) {
                continue;
            }
            try {
                applyRecord(r);
            } catch (RecordDecodeException e) {
                skipped.incrementAndGet();
                LOG.debug("status feed skips {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            } catch (SerializationException e) {
                // the registry could not be reached: read this record again after a pause
                return new Batch(i, e.getMessage(), Set.of());
            }
        }
        Set<Integer> behind = new TreeSet<>();
        lastWasOld.forEach((partition, old) -> {
            if (old) {
                behind.add(partition);
            }
        });
        return new Batch(-1, null, behind);
    }

    /** Moves results partitions that are behind to the first offset of the lookback window, counting the jump. */
    private void seekForward(Set<Integer> partitions, long nowMs) {
        Map<TopicPartition, Long> since = new HashMap<>();
        partitions.forEach(p -> since.put(new TopicPartition(topics.probeResults(), p), lookback.cutoff(nowMs)));
        try {
            // the ends first: when no record is recent enough, every offset before an end read earlier is old too,
            // whereas an end read afterwards could include results written in between
            Map<TopicPartition, Long> ends = consumer.endOffsets(since.keySet(), KAFKA_CALL);
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(since, KAFKA_CALL);
            for (TopicPartition p : since.keySet()) {
                OffsetAndTimestamp first = found.get(p);
                Long end = ends.get(p);
                if (end == null) {
                    continue;
                }
                long position = consumer.position(p, KAFKA_CALL);
                long target = ResultsLookback.seekTarget(position, first == null ? null : first.offset(), end);
                if (target > position) {
                    consumer.seek(p, target);
                    lookbackSkipped.addAndGet(target - position);
                    lookbackSeeks.incrementAndGet();
                    LOG.info("status feed more than {} behind on {}: sought forward from {} to {}",
                            RESULTS_LOOKBACK, p, position, target);
                }
            }
        } catch (TimeoutException e) {
            // old results are passed over undecoded anyway: the next batch tries the seek again
            LOG.warn("status feed could not seek {} forward: {}", since.keySet(), e.getMessage());
        }
    }

    /** Rewinds each partition to its first record not applied yet. */
    private void seekBack(List<ConsumerRecord<String, byte[]>> notApplied) {
        Map<TopicPartition, Long> first = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : notApplied) {
            first.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
        }
        first.forEach(consumer::seek);
    }

    private void applyRecord(ConsumerRecord<String, byte[]> r) {
        String topic = r.topic();
        if (topic.equals(topics.healthState())) {
            if (r.value() == null) {
                board.removeTarget(r.key());
            } else {
                board.putTarget(row(healthSerde.deserializer().deserialize(topic, r.value())));
            }
        } else if (topic.equals(topics.groupState())) {
            if (r.value() == null) {
                board.removeGroup(r.key());
            } else {
                // the counts say how many members are routed to; the ids are not decoded (up to group.routable.max)
                GroupRouting g = groups.deserialize(topic, r.value());
                board.putGroup(g.groupId(), g.failOpen(), g.routable(), g.failOpenReason());
            }
        } else if (topic.equals(topics.targets())) {
            if (r.value() == null) {
                board.putLabels(r.key(), null);
            } else {
                TargetDefinition d = definitionSerde.deserializer().deserialize(topic, r.value());
                Map<String, String> labels = new HashMap<>();
                d.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
                board.putDefinition(r.key(), labels, tlsNote(d));
            }
        } else if (r.value() != null) {
            ProbeSample p = samples.deserialize(topic, r.value());
            board.addResult(r.key(), new LatencyPoint(p.startedAtMs(), p.latencyMicros(), p.success()));
        }
    }

    /**
     * The page's note on a definition's TLS: whether it says verification off, or was stored under the old default
     * and is probed unverified. Product profiles, which never verify, and verified checks get no note.
     */
    static String tlsNote(TargetDefinition d) {
        return switch (TargetSpecs.tlsVerification(d)) {
            case SKIPPED_BY_DEFINITION -> StatusBoard.TargetEntry.INSECURE_SKIP_VERIFY;
            case OFF_BY_OLD_DEFAULT -> StatusBoard.TargetEntry.NOT_VERIFIED_OLD_DEFAULT;
            case NO_TLS, VERIFIED, OFF_UNDER_PROFILE -> null;
        };
    }

    /** The page's row of a state event. */
    static TargetRow row(TargetHealth h) {
        List<RegionRow> regions = new ArrayList<>(h.getRegions().size());
        for (RegionHealth r : h.getRegions()) {
            regions.add(new RegionRow(r.getRegion(), r.getStatus().name(), RegionRow.vote(r.getStatus().name(),
                    r.getConsecutiveSuccesses(), r.getConsecutiveFailures(), r.getStale()),
                    r.getStale(), r.getLastOutcome() == null ? null : r.getLastOutcome().name(),
                    r.getLastResultAtMs()));
        }
        return new TargetRow(h.getTargetId(), h.getGroup(), h.getStatus().name(),
                h.getPreviousStatus() == null ? null : h.getPreviousStatus().name(), h.getSinceMs(),
                h.getReason() == null ? null : h.getReason().name(), h.getReasonDetail(), h.getStale(),
                h.getLatencyMicros(), h.getLastResultAtMs(), h.getQuorum().name(), regions, h.getUpdatedAtMs(),
                h.getMaintenance() == null ? null : new TargetRow.Maintenance(h.getMaintenance().getId(),
                        h.getMaintenance().getMode().name(), h.getMaintenance().getUntilMs()));
    }

    /** Stops the feed and waits for its thread (bounded). */
    @Override
    public void close() {
        loop.close();
        healthSerde.close();
        groups.close();
        definitionSerde.close();
        samples.close();
    }
}
