package io.healthmesh.prober.assign;

import io.healthmesh.prober.schedule.Ticker;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Reads the targets topic as a member of the region's consumer group and keeps the scheduler in step with
 * the definitions of the assigned partitions. Runs on its own thread.
 *
 * <ul>
 *   <li>Assigned partitions are read from the beginning: the compacted topic is the whole config, so a
 *       rebalance moves targets between workers with no other coordination.</li>
 *   <li>Revoked (or lost) partitions' targets are removed from the scheduler inside the rebalance callback,
 *       so no worker probes them once the partitions are handed over.</li>
 *   <li>Committed offsets are not a read position (reads always start at the beginning); they mark how far
 *       the group has already judged records, so bad records are sent to the rejected topic once per region,
 *       not again at every rebalance.</li>
 *   <li>A record that cannot be judged because the schema registry is unreachable pauses its partition for
 *       {@link #RETRY_BACKOFF} and is read again; the other partitions go on.</li>
 *   <li>{@link #shed(boolean) Shedding} (an overloaded prober): the consumer leaves the group, so its partitions and
 *       targets go to the other probers of the region, and it reports not ready; it joins again when told. It
 *       leaves only while {@link GroupPeers another member} is there to take them: a prober alone in its region
 *       keeps probing (late probes are INCONCLUSIVE) and asks again every {@link #PEER_RECHECK}.</li>
 * </ul>
 */
public final class TargetAssignment implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetAssignment.class);
    static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration TOPIC_CHECK_INTERVAL = Duration.ofSeconds(1);
    /** How often an overloaded prober that is alone in its group asks again whether a peer arrived. */
    static final Duration PEER_RECHECK = Duration.ofSeconds(5);

    private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final DefinitionReader reader;
    private final OwnedTargets owned;
    private final RejectedRecords rejected;
    private final GroupPeers peers;
    private final Ticker ticker;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);

    // consumer thread only
    private final Map<TopicPartition, Long> judgedBefore = new HashMap<>();
    private final Map<TopicPartition, Long> catchUpTo = new HashMap<>();
    private final Map<TopicPartition, Long> pausedUntil = new HashMap<>();
    private boolean assignedOnce;
    private long topicCheckedAt;
    private boolean topicSeen;
    private boolean missingReported;
    private volatile boolean running = true;
    private volatile boolean ready;
    private volatile boolean shedRequested;
    private boolean subscribed;
    private volatile boolean heldAlone;
    private long peersAskedAt;
    private boolean peersAsked;
    private volatile int ownedCount;

    /**
     * @param consumer a consumer configured for the group (byte-array key and value, no auto commit,
     *                 cooperative-sticky); this object owns and closes it
     * @param producer where rejected records go; not closed here
     * @param rejectedBy who rejects, {@code prober/<region>/<id>}
     * @param onRejected counts a rejection by reason
     * @param peers asked before shedding whether another member could take the targets
     * @param ticker the time source of the peer re-check
     */
    public TargetAssignment(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer, String topic,
                            String region, Deserializer<TargetDefinition> deserializer, TargetSink sink,
                            Producer<byte[], byte[]> producer, String rejectedTopic, String rejectedBy,
                            Consumer<String> onRejected, GroupPeers peers, Ticker ticker) {
        this.consumer = requireNonNull(consumer, "consumer");
        this.peers = requireNonNull(peers, "peers");
        this.ticker = requireNonNull(ticker, "ticker");
        this.topic = requireNonNull(topic, "topic");
        this.reader = new DefinitionReader(deserializer);
        this.owned = new OwnedTargets(region, sink);
        this.rejected = new RejectedRecords(producer, rejectedTopic, rejectedBy, onRejected);
        this.thread = new Thread(this::run, "healthmesh-prober-assignment");
        this.thread.setDaemon(true);
    }

    /** Subscribes and starts the consumer thread. */
    public TargetAssignment start() {
        thread.start();
        return this;
    }

    /**
     * True once an assignment arrived and every partition it added was read up to its end as of the assignment.
     * Turns false while newly assigned partitions are being read (a rebalance), so it says "probing the whole
     * share of this worker".
     */
    public boolean ready() {
        return ready;
    }

    /**
     * Gives every partition up and stays out of the group ({@code true}), or joins again ({@code false}). Applied by
     * the consumer thread within a poll; thread-safe.
     */
    public void shed(boolean on) {
        shedRequested = on;
    }

    /** True while this worker was asked to shed (it may still hold its targets: see {@link #heldAlone()}). */
    public boolean shedding() {
        return shedRequested;
    }

    /**
     * True while this worker was asked to shed but keeps its targets because no other member of the group could
     * take them.
     */
    public boolean heldAlone() {
        return heldAlone;
    }

    /** Targets probed from the assigned partitions now. */
    public int ownedTargets() {
        return ownedCount;
    }

    private void run() {
        try {
            while (running) {
                try {
                    if (shedRequested && subscribed) {
                        shedIfSomeoneCanTakeOver();
                    } else if (shedRequested) {
                        joinIfNobodyElseProbes();
                    } else if (!subscribed) {
                        applyShedding();
                    } else if (!shedRequested && heldAlone) {
                        heldAlone = false;
                        peersAsked = false;
                        LOG.info("no longer overloaded: the prober goes on probing its targets");
                    }
                    if (!subscribed) {
                        Thread.sleep(POLL.toMillis());
                        continue;
                    }
                    pollOnce();
                } catch (RetriableException e) {
                    // Kafka is away or slow (e.g. a position lookup timed out): probing goes on, so does this loop
                    LOG.warn("targets consumer: {}; retrying", e.toString());
                }
            }
        } catch (WakeupException | InterruptException e) {
            // close() asked us to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (running) {
                // leaving the group below hands our partitions to the other workers of the region
                LOG.error("target assignment stopped: this worker probes nothing more and reports not ready", e);
            } else {
                LOG.debug("target assignment failed while closing", e);
            }
        } finally {
            ready = false;
            try {
                consumer.close(CLOSE_TIMEOUT);   // leaves the group; the revocation callback stops our targets
            } catch (RuntimeException e) {
                LOG.warn("closing the targets consumer failed", e);
            }
            owned.releaseAll();
            ownedCount = owned.count();
            stopped.countDown();
        }
    }

    /**
     * Leaves the group when another member is there to take the targets over; otherwise keeps them (logging it once)
     * and asks again after {@link #PEER_RECHECK}. An unknown answer (Kafka unreachable) keeps them too: leaving would
     * not move them anywhere sooner.
     */
    private void shedIfSomeoneCanTakeOver() {
        long now = ticker.nanoTime();
        if (peersAsked && now - peersAskedAt < PEER_RECHECK.toNanos()) {
            return;
        }
        peersAsked = true;
        peersAskedAt = now;
        int members = peers.members();
        int others = members == GroupPeers.UNKNOWN ? GroupPeers.UNKNOWN : Math.max(0, members - 1);   // we are in
        if (others > 0) {
            heldAlone = false;
            peersAsked = false;
            applyShedding();
            return;
        }
        if (!heldAlone) {
            LOG.warn("overloaded, but {}: keeping every target (late probes are reported INCONCLUSIVE, not as"
                            + " failures); asking again every {} s",
                    others == 0 ? "no other prober of the region is in the group to take them"
                            : "the group could not be described", PEER_RECHECK.toSeconds());
        }
        heldAlone = true;
    }

    /**
     * While shedding (or overloaded before its first join): joins anyway once no other member is in the group, e.g.
     * when the prober that took the targets over died, so that shedding never leaves a region without a prober.
     * Asked every {@link #PEER_RECHECK}; the prober then keeps its targets as in {@link #shedIfSomeoneCanTakeOver}.
     */
    private void joinIfNobodyElseProbes() {
        long now = ticker.nanoTime();
        if (peersAsked && now - peersAskedAt < PEER_RECHECK.toNanos()) {
            return;
        }
        peersAsked = true;
        peersAskedAt = now;
        if (peers.members() == 0) {   // we are out: nobody at all probes the region's targets
            LOG.warn("overloaded, but no other prober of the region is in the group: joining to probe its targets"
                    + " (late probes are reported INCONCLUSIVE)");
            heldAlone = true;
            consumer.subscribe(List.of(topic), new Rebalance());
            subscribed = true;
        }
    }

    /** Leaves the group (the revocation callback stops every owned target) or joins it again. */
    private void applyShedding() {
        if (shedRequested) {
            consumer.unsubscribe();
            subscribed = false;
            ready = false;
            assignedOnce = false;
            catchUpTo.clear();
            owned.releaseAll(); // whatever the callback did not release (nothing, normally)
            ownedCount = owned.count();
            LOG.warn("shedding: left the group; the other probers of the region take these targets");
        } else {
            consumer.subscribe(List.of(topic), new Rebalance());
            subscribed = true;
            if (assignedOnce || topicCheckedAt != 0) {
                LOG.info("joining the group again after shedding");
            }
        }
    }

    private void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        for (TopicPartition partition : records.partitions()) {
            handle(partition, records.records(partition));
        }
        // before ready can turn true: whoever sees ready sees the share it counts
        ownedCount = owned.count();
        resumeDuePartitions();
        checkCaughtUp();
        commitJudged();
    }

    /** The next offset to read; bounded so that a broker outage stalls this loop for seconds, not a minute. */
    private long position(TopicPartition partition) {
        return consumer.position(partition, POSITION_TIMEOUT);
    }

    /** Reason of a record whose handling failed in a way no rule foresaw: rejected, never retried. */
    static final String PROCESSING_FAILED = "PROCESSING_FAILED";

    private void handle(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!running) {
                return;   // closing: a slow registry call may have outlived close()'s patience; apply nothing more
            }
            DefinitionVerdict verdict;
            try {
                verdict = judge(partition, record);
            } catch (Throwable t) {
                if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                    throw t;   // out of memory or a broken JVM: the process must end, not this record
                }
                // no record may stop the assignment loop (BEHAVIOUR.md section 9): this one is rejected and the next read
                if (record.offset() >= judgedBefore.getOrDefault(partition, 0L)) {
                    rejectSafely(record, PROCESSING_FAILED, "processing: " + describe(t));
                }
                continue;
            }
            if (verdict instanceof DefinitionVerdict.RetryLater later) {
                LOG.warn("cannot judge {}@{} now, retrying in {}: {}", partition, record.offset(),
                        RETRY_BACKOFF, later.detail());
                consumer.seek(partition, record.offset());
                consumer.pause(List.of(partition));
                pausedUntil.put(partition, System.nanoTime() + RETRY_BACKOFF.toNanos());
                return;
            }
        }
    }

    /** Reads one record and applies what it says; a RetryLater is returned without being applied. */
    private DefinitionVerdict judge(TopicPartition partition, ConsumerRecord<byte[], byte[]> record) {
        DefinitionVerdict verdict = reader.read(record.topic(), record.key(), record.value());
        if (verdict instanceof DefinitionVerdict.Valid v) {
            owned.apply(partition, v.spec().id(), v.spec());
        } else if (verdict instanceof DefinitionVerdict.Deleted d) {
            owned.apply(partition, d.targetId(), null);
        } else if (verdict instanceof DefinitionVerdict.Rejected r) {
            // an invalid update replaces the old definition (it does so in the compacted topic too)
            if (r.targetId() != null) {
                owned.apply(partition, r.targetId(), null);
            }
            if (record.offset() >= judgedBefore.getOrDefault(partition, 0L)) {
                rejected.reject(record, r.reason(), r.detail());
            }
        }
        return verdict;
    }

    private void rejectSafely(ConsumerRecord<byte[], byte[]> record, String reason, String detail) {
        try {
            rejected.reject(record, reason, detail);
        } catch (RuntimeException e) {
            LOG.warn("record {}-{}@{} could not be sent to the rejected topic: {}", record.topic(), record.partition(),
                    record.offset(), e.toString());
        }
    }

    private static String describe(Throwable t) {
        String text = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        return text.length() <= 1024 ? text : text.substring(0, 1024) + "... (" + text.length() + " characters)";
    }

    private void resumeDuePartitions() {
        if (pausedUntil.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        pausedUntil.entrySet().removeIf(e -> {
            if (now - e.getValue() >= 0) {
                if (consumer.assignment().contains(e.getKey())) {
                    consumer.resume(List.of(e.getKey()));
                }
                return true;
            }
            return false;
        });
    }

    private void checkCaughtUp() {
        if (!assignedOnce) {
            return;
        }
        catchUpTo.entrySet().removeIf(e -> position(e.getKey()) >= e.getValue());
        // an empty assignment is normal with more workers than partitions, but also what a missing topic gives
        boolean caughtUp = catchUpTo.isEmpty() && (!consumer.assignment().isEmpty() || topicExists());
        if (caughtUp && !ready) {
            LOG.info("read of the assigned target partitions caught up: {} targets", owned.count());
        }
        ready = caughtUp;
    }

    /** Whether the targets topic exists, asked at most once a second (only while nothing is assigned). */
    private boolean topicExists() {
        long now = System.nanoTime();
        if (now - topicCheckedAt < TOPIC_CHECK_INTERVAL.toNanos() && topicCheckedAt != 0) {
            return topicSeen;
        }
        topicCheckedAt = now;
        boolean seen;
        try {
            seen = !consumer.partitionsFor(topic, POSITION_TIMEOUT).isEmpty();
        } catch (RetriableException e) {
            seen = false;
        }
        if (!seen && (topicSeen || !missingReported)) {   // once, and again if it vanishes
            LOG.warn("targets topic {} does not exist (yet): not ready until it does", topic);
            missingReported = true;
        }
        topicSeen = seen;
        return seen;
    }

    /** Commits read positions that are past what the group had already judged (never moves a commit back). */
    private void commitJudged() {
        Map<TopicPartition, OffsetAndMetadata> advance = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> e : judgedBefore.entrySet()) {
            long position = position(e.getKey());
            if (position > e.getValue()) {
                advance.put(e.getKey(), new OffsetAndMetadata(position));
                e.setValue(position);
            }
        }
        if (!advance.isEmpty()) {
            consumer.commitAsync(advance, (offsets, error) -> {
                if (error != null) {
                    LOG.debug("committing judged offsets failed (only duplicate rejections can follow)", error);
                }
            });
        }
    }

    /** Stops the consumer thread: leaves the group (revoking and stopping every owned target) and waits. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            if (!stopped.await(CLOSE_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                LOG.warn("target assignment thread did not stop in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            assignedOnce = true;
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
            Map<TopicPartition, Long> ends = Map.of();
            try {
                committed = consumer.committed(Set.copyOf(partitions), LOOKUP_TIMEOUT);
                ends = consumer.endOffsets(partitions, LOOKUP_TIMEOUT);
            } catch (RetriableException e) {
                // degrade, never fail the rebalance: a bad record may be rejected once more, and readiness
                // waits only for the positions to be known
                LOG.warn("could not look up committed or end offsets of {}: {}", partitions, e.toString());
            }
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata c = committed.get(partition);
                judgedBefore.put(partition, c == null ? 0L : c.offset());
                catchUpTo.put(partition, ends.getOrDefault(partition, 0L));
            }
            consumer.seekToBeginning(partitions);
            LOG.info("assigned target partitions {}", partitions);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            owned.release(partitions);
            ownedCount = owned.count();
            commitOnHandOver(partitions);
            forget(partitions);
            LOG.info("revoked target partitions {}: their targets are no longer probed here", partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            owned.release(partitions);
            ownedCount = owned.count();
            forget(partitions);
            LOG.warn("lost target partitions {}: their targets are no longer probed here", partitions);
        }

        /** Best effort: a failure here only means a later owner may reject a bad record again. */
        private void commitOnHandOver(Collection<TopicPartition> partitions) {
            try {
                Map<TopicPartition, OffsetAndMetadata> advance = new HashMap<>();
                for (TopicPartition partition : partitions) {
                    Long judged = judgedBefore.get(partition);
                    long position = position(partition);
                    if (judged != null && position > judged) {
                        advance.put(partition, new OffsetAndMetadata(position));
                    }
                }
                if (!advance.isEmpty()) {
                    consumer.commitSync(advance, Duration.ofSeconds(2));
                }
            } catch (RuntimeException e) {
                LOG.debug("committing judged offsets on hand-over failed (only duplicate rejections can follow)", e);
            }
        }

        private void forget(Collection<TopicPartition> partitions) {
            partitions.forEach(p -> {
                judgedBefore.remove(p);
                catchUpTo.remove(p);
                pausedUntil.remove(p);
            });
        }
    }
}
