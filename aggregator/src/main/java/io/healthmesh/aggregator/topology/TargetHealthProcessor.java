package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.ReadClock;
import io.healthmesh.aggregator.domain.ResultTrust;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.aggregator.domain.TargetUpdate;
import io.healthmesh.aggregator.domain.UnknownTargetHold;
import io.healthmesh.aggregator.topology.AggregatorOutput.HealthEvent;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.ThresholdChange;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.aggregator.topology.AggregatorOutput.Rejected;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.contract.Topics;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Per target: reads definitions and results (co-partitioned, same task), keeps {@link TargetHealthState} in the
 * {@code target-health} store, and forwards state events, group membership changes and rejected records. Staleness
 * is checked on wall-clock punctuation, but judged on the task's {@link ReadClock}: how far into the present the task
 * has read its input, so that a task catching up on a backlog does not take its own lag for silence (BEHAVIOUR.md
 * section 6). Every record read moves that clock and every punctuation ticks it; the times the domain stores for
 * staleness (when a result was heard, when a target started being watched) are read from it. A result for a target
 * with no definition yet waits in {@link HeldResults} for it ({@link UnknownTargetHold}): the two topics are not
 * always read in timestamp order. Holds no rules: it decodes, loads, calls the domain, stores and forwards.
 */
final class TargetHealthProcessor implements Processor<byte[], byte[], byte[], AggregatorOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(TargetHealthProcessor.class);
    /** Targets one staleness pass checks at most (a pass that writes them all takes tens of milliseconds). */
    static final int MAX_CHECKS_PER_PASS = 2_000;
    /** How soon the next pass follows one that left due targets behind. */
    static final Duration DRAIN_INTERVAL = Duration.ofMillis(10);

    private final Topics topics;
    private final InputDecoder decoder;
    private final GroupPolicyDecoder groupPolicies;
    private final StalenessRule staleness;
    private final Duration punctuateInterval;
    private final ResultTrust trust;
    /** Largest rejected record (key, value, headers) copied as it is; larger ones are reported TOO_LARGE. */
    private final long maxRejectedBytes;
    private final int historyLength;
    private final EarlyCommits earlyCommits;
    private EarlyCommits.Requester commits;
    private final CommitPacer pacer;
    private CommitPacer.Registration paced = CommitPacer.Registration.NONE;

    private ProcessorContext<byte[], AggregatorOutput> context;
    private KeyValueStore<String, StoredTarget> store;
    private KeyValueStore<Bytes, byte[]> history;
    private AggregatorMetrics metrics;
    /**
     * The clock staleness is judged by; its start is when this task started: silence before it does not count
     * (restart, rebalance).
     */
    private ReadClock clock;
    /** When each target of this task is next due for a staleness check. */
    private StalenessSchedule due;
    /** The punctuation draining a backlog of due targets, or {@code null} when there is none. */
    private Cancellable draining;
    /** Which maintenance window each event carries, and which targets a window's start or end concerns. */
    private final MaintenanceTracker maintenance;
    /** Produces the events of a maintenance pass and keeps a walk of the maintenance rows going. */
    private final MaintenanceEmission emission = new MaintenanceEmission("target", LOG);
    /** How long a result for a target with no definition yet waits for it. */
    private final UnknownTargetHold hold;
    /** The results this task holds for targets it has no definition of yet. */
    private HeldResults held;

    TargetHealthProcessor(Topics topics, InputDecoder decoder, GroupPolicyDecoder groupPolicies, StalenessRule staleness, Duration punctuateInterval,
                          ResultTrust trust, long maxRejectedBytes, int historyLength, EarlyCommits earlyCommits,
                          CommitPacer pacer, MaintenanceWindows maintenanceWindows, UnknownTargetHold hold) {
        this.topics = requireNonNull(topics, "topics");
        this.decoder = requireNonNull(decoder, "decoder");
        this.groupPolicies = requireNonNull(groupPolicies, "groupPolicies");
        this.staleness = requireNonNull(staleness, "staleness");
        this.punctuateInterval = requireNonNull(punctuateInterval, "punctuateInterval");
        this.trust = requireNonNull(trust, "trust");
        this.maxRejectedBytes = maxRejectedBytes;
        this.historyLength = historyLength;
        this.earlyCommits = requireNonNull(earlyCommits, "earlyCommits");
        this.pacer = requireNonNull(pacer, "pacer");
        this.maintenance = new MaintenanceTracker(maintenanceWindows);
        this.hold = requireNonNull(hold, "hold");
    }

    @Override
    public void init(ProcessorContext<byte[], AggregatorOutput> context) {
        this.context = context;
        this.store = context.getStateStore(AggregatorTopology.TARGET_STORE);
        this.history = context.getStateStore(AggregatorTopology.HISTORY_STORE);
        this.metrics = new AggregatorMetrics(context.metrics());
        this.clock = new ReadClock(context.currentSystemTimeMs(), 2 * punctuateInterval.toMillis(),
                staleness.maxBehindMs());
        this.due = new StalenessSchedule();
        this.draining = null; // a task revived after a failure re-initialises this instance: its punctuations are gone
        maintenance.init(context);
        this.held = new HeldResults(hold, context.getStateStore(AggregatorTopology.HELD_RESULTS_STORE));
        // once per task start (the store is restored by now): from then on only the targets due are read
        try (KeyValueIterator<String, StoredTarget> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<String, StoredTarget> entry = all.next();
                schedule(entry.key, entry.value.state());
            }
        }
        context.schedule(punctuateInterval, PunctuationType.WALL_CLOCK_TIME, this::checkStaleness);
        this.commits = earlyCommits.forTask(context, metrics);
        paced.close(); // a revived task registers again
        this.paced = pacer.register(context);
        emission.init(context, metrics, paced, this::checkMaintenance); // a revived task's punctuations are gone
    }

    @Override
    public void close() {
        paced.close();
    }

    private void schedule(String id, TargetHealthState state) {
        due.schedule(id, state.nextStalenessCheckMs(clock.startedAtMs(), staleness, trust));
    }

    /**
     * Handles one record; whatever goes wrong while it is handled ends with the record in the rejected topic
     * ({@code PROCESSING_FAILED}) and the next record handled: no input can stop the partition (BEHAVIOUR.md section 9). Three
     * things escape: a registry that cannot be reached (the record may be fine: the task retries it), Kafka Streams'
     * own exceptions (a fenced producer, a migrated task, a failed store: Streams handles them for the whole task)
     * and the JVM running out of memory or failing internally (the process must end).
     */
    @Override
    public void process(Record<byte[], byte[]> record) {
        paced.processed();
        clock.read(record.timestamp(), context.currentSystemTimeMs());
        try {
            handle(record);
        } catch (RegistryUnavailableException | StreamsException e) {
            throw e; // retried by the task (the registry) or handled by Kafka Streams (fenced, migrated, store failed)
        } catch (Throwable t) {
            if (RecordSafeHandlers.isFatal(t)) {
                throw t;
            }
            reject(record, new Rejection(Rejection.PROCESSING_FAILED, "processing: " + RecordSafeHandlers.describe(t)));
        }
    }

    private void handle(Record<byte[], byte[]> record) {
        String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
        Decoded<String> key = InputDecoder.key(record.key());
        if (key.isRejected()) {
            reject(record, key.rejection());
        } else if (topic.equals(topics.targets())) {
            onDefinition(record, topic, key.value());
        } else if (topic.equals(topics.groups())) {
            onGroupPolicy(record, topic, key.value());
        } else {
            onResult(record, topic, key.value());
        }
    }

    /** A group's policy: passed on, keyed by group id, to the group processor (after the repartition by group). */
    private void onGroupPolicy(Record<byte[], byte[]> record, String topic, String groupId) {
        Decoded<PanicThreshold> threshold = groupPolicies.threshold(topic, groupId, record.value());
        if (threshold.isRejected()) {
            reject(record, threshold.rejection()); // the policy in force (if any) stays
            return;
        }
        context.forward(new Record<>(record.key(), new ThresholdChange(threshold.value()), record.timestamp()));
    }

    private void onDefinition(Record<byte[], byte[]> record, String topic, String id) {
        held.definitionRead(record.timestamp());
        if (record.value() == null) {
            delete(id, record.timestamp());
            return;
        }
        Decoded<TargetSpec> spec = decoder.definition(topic, id, record.value());
        if (spec.isRejected()) {
            // the definition in force (if any) stays: a broken update must not erase a working target
            reject(record, spec.rejection());
            return;
        }
        TargetEssentials essentials = TargetEssentials.of(spec.value());
        long now = context.currentSystemTimeMs();
        maintenance.defined(id, spec.value().group(), spec.value().labels());
        StoredTarget current = store.get(id);
        if (current == null) {
            commit(TargetHealthState.create(essentials, record.timestamp(), clock.nowMs()), 0, null,
                    record.timestamp());
        } else {
            commit(current.state().redefine(essentials, record.timestamp(), clock.nowMs()), current.historyNext(),
                    null, record.timestamp());
        }
        if (maintenance.changed(id, now)) {
            // new labels (or a group change that emitted nothing) brought the target into or out of a window
            emitMaintenanceChange(id, now, record.timestamp());
        }
        applyHeld(id, record.timestamp());
    }

    /**
     * The results held for {@code id} until its definition, stamped {@code definedAtMs}, was read: each is applied
     * as if it had been read now, in timestamp order, or rejected when it was stamped before the definition.
     */
    private void applyHeld(String id, long definedAtMs) {
        for (HeldResults.Held h : held.release(id)) {
            Consumer<Rejection> rejecter = rejection -> rejectHeld(h, rejection);
            if (!UnknownTargetHold.answers(h.timestampMs(), definedAtMs)) {
                rejecter.accept(new Rejection(Rejection.UNKNOWN_TARGET, "targetId: " + id + " (probed at "
                        + h.timestampMs() + ", before the definition read after it, stamped " + definedAtMs + ")"));
                continue;
            }
            try {
                Decoded<ProbeObservation> result = decoder.result(h.topic(), id, h.value());
                StoredTarget stored = store.get(id);
                if (result.isRejected()) {
                    rejecter.accept(result.rejection());
                } else if (stored != null) {
                    metrics.unknownTargetResult("applied");
                    apply(stored, result.value(), h.timestampMs(), rejecter);
                }
            } catch (RegistryUnavailableException | StreamsException e) {
                throw e; // the task retries the definition, and the held results are still in the store
            } catch (RuntimeException | StackOverflowError e) {
                // released from the store already: one that fails must not take the others (or the definition) along
                rejecter.accept(new Rejection(Rejection.PROCESSING_FAILED, "processing a held result: "
                        + RecordSafeHandlers.describe(e)));
            }
        }
    }

    private void onResult(Record<byte[], byte[]> record, String topic, String id) {
        Decoded<ProbeObservation> result = decoder.result(topic, id, record.value());
        if (result.isRejected()) {
            reject(record, result.rejection());
            return;
        }
        StoredTarget stored = store.get(id);
        if (stored == null) {
            holdUntilDefined(record, id);
            return;
        }
        apply(stored, result.value(), record.timestamp(), rejection -> reject(record, rejection));
    }

    /** A result for a target with no definition: held until it comes ({@link UnknownTargetHold}), or rejected. */
    private void holdUntilDefined(Record<byte[], byte[]> record, String id) {
        RecordMetadata source = context.recordMetadata().orElse(null);
        HeldResults.Outcome outcome = source == null ? new HeldResults.Outcome(false, null)
                : held.hold(id, HeldResults.Held.of(record, source, context.currentSystemTimeMs()));
        if (!outcome.held()) {
            reject(record, unknownTarget(id, "not held: " + (hold.enabled() ? "the hold is full or the result"
                    + " too large" : "unknown.target.hold.ms is 0")));
            return;
        }
        metrics.unknownTargetResult("held");
        if (outcome.pushedOut() != null) {
            rejectHeld(outcome.pushedOut(), unknownTarget(id, "pushed out by the target's "
                    + (UnknownTargetHold.MAX_PER_TARGET + 1) + "th result held"));
        }
    }

    private Rejection unknownTarget(String id, String why) {
        return new Rejection(Rejection.UNKNOWN_TARGET, "targetId: " + id + " (expected: a target defined in "
                + topics.targets() + "; " + why + ")");
    }

    /** Applies a result to the target's stored state; {@code rejecter} refuses it with the record it came in. */
    private void apply(StoredTarget stored, ProbeObservation observed, long timestamp, Consumer<Rejection> rejecter) {
        String id = stored.state().targetId();
        TargetHealthState current = stored.state();
        long now = context.currentSystemTimeMs();
        ResultTrust.Distrust distrust = trust.check(current.spec(), observed, now);
        if (distrust == ResultTrust.Distrust.FUTURE_RESULT) {
            rejecter.accept(new Rejection(Rejection.FUTURE_RESULT, "startedAtMs: " + observed.startedAtMs()
                    + " (expected: at most " + trust.maxFutureSkewMs() + " ms after the aggregator's clock, " + now + ")"));
            return;
        }
        if (distrust == ResultTrust.Distrust.UNLISTED_REGION) {
            rejecter.accept(new Rejection(Rejection.UNLISTED_REGION, "region: " + observed.region()
                    + " (expected: one of the target's regions " + current.spec().regions() + ")"));
            return;
        }
        TargetUpdate update = current.apply(observed, clock.nowMs());
        if (update.ignored() != null) {
            metrics.ignored(update.ignored());
            if (!update.stateChanged()) {
                return;
            }
        }
        commit(update, stored.historyNext(), observed, timestamp);
    }

    private void delete(String id, long timestamp) {
        for (HeldResults.Held h : held.release(id)) {
            rejectHeld(h, unknownTarget(id, "deleted before its definition was read"));
        }
        StoredTarget current = store.get(id);
        if (current == null) {
            return; // a tombstone for a target never seen (or already deleted): nothing to undo
        }
        store.delete(id);
        HistoryRows.delete(history, id);
        maintenance.deleted(id);
        due.remove(id);
        context.forward(new Record<>(bytes(id), new HealthEvent(null), timestamp));
        metrics.healthEvent();
        context.forward(new Record<>(bytes(current.state().spec().group()), new MembershipChange(id, null),
                timestamp));
        commits.eventWritten(timestamp);
    }

    /**
     * Stores and forwards what an update changed; {@code historyNext} is the number the target's next history entry
     * takes ({@link StoredTarget}), {@code applied} the result the update applied, if any.
     */
    private void commit(TargetUpdate update, long historyNext, ProbeObservation applied, long timestamp) {
        TargetHealthState after = update.after();
        String id = after.targetId();
        long next = historyNext;
        if (historyLength > 0 && (applied != null || update.statusChanged())) {
            // an ignored result adds nothing: no row is written, nothing goes to the changelog
            next = HistoryRows.append(history, id, TargetHistory.entriesOf(update, applied), historyLength,
                    historyNext);
        }
        if (update.stateChanged() || next != historyNext) {
            store.put(id, new StoredTarget(after, next));
            schedule(id, after);
        }
        if (update.emits()) {
            long now = context.currentSystemTimeMs();
            MaintenanceWindow window = maintenance.emitting(id, after.spec().group(), now);
            context.forward(new Record<>(bytes(id), new HealthEvent(StateEvents.targetHealth(after, now,
                    MaintenanceRecords.inForce(window))), timestamp));
            metrics.healthEvent();
            if (applied != null && update.statusChanged()) {
                metrics.statusChangeDelay(now - applied.completedAtMs());
            }
        }
        if (update.groupChanged()) {
            context.forward(new Record<>(bytes(update.before().spec().group()), new MembershipChange(id, null),
                    timestamp));
        }
        if (update.membershipChanged()) {
            context.forward(new Record<>(bytes(after.spec().group()), new MembershipChange(id, after.status()),
                    timestamp));
        }
        if (update.emits() || update.groupChanged() || update.membershipChanged()) {
            // the group's event follows once this transaction commits (the repartition is read read_committed)
            commits.eventWritten(timestamp);
        }
    }

    /**
     * The wall-clock punctuation: checks the targets that fell due. When more fell due than one pass takes (a region
     * gone silent makes every target of it due at once), the rest is drained by a short punctuation, pass after pass,
     * so that Kafka Streams commits between them: one pass over every target could outlast the transaction timeout
     * (measured: 170,000 targets of one task going stale at once fenced the task's producer).
     */
    private void checkStaleness(long now) {
        if (checkDue(now, clock.tick(now)) && draining == null) {
            draining = context.schedule(DRAIN_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::drain);
        }
        checkMaintenance(now);
        for (HeldResults.Held h : held.settle(now, MAX_CHECKS_PER_PASS)) {
            rejectHeld(h, unknownTarget(new String(h.key(), StandardCharsets.UTF_8), "none read while the result"
                    + " was held, " + (now - h.heldAtMs()) + " ms, nor before the definitions written "
                    + UnknownTargetHold.DEFINITIONS_AHEAD_MS + " ms after it"));
        }
    }

    /**
     * Emits an event for every target whose maintenance window in force changed (a window started or ended, or the
     * windows changed), a bounded number per pass; a walk with rows left goes on at {@link #DRAIN_INTERVAL}.
     */
    private void checkMaintenance(long now) {
        List<MaintenanceTracker.Change> changes = maintenance.pass(now);
        emission.emit(changes, MaintenanceTracker.Change::targetId, (id, at) -> emitMaintenanceChange(id, at, at),
                now, maintenance.walking());
    }

    /** The state event of a target whose state did not change but whose maintenance window in force did. */
    private void emitMaintenanceChange(String id, long now, long timestamp) {
        StoredTarget stored = store.get(id);
        if (stored == null) {
            return;
        }
        TargetHealthState state = stored.state();
        MaintenanceWindow window = maintenance.emitting(id, state.spec().group(), now);
        context.forward(new Record<>(bytes(id), new HealthEvent(StateEvents.targetHealth(state, now,
                MaintenanceRecords.inForce(window))), timestamp));
        metrics.healthEvent();
        commits.eventWritten(timestamp);
    }

    private void drain(long now) {
        if (!checkDue(now, clock.tick(now)) && draining != null) {
            draining.cancel();
            draining = null;
        }
    }

    /**
     * Checks at most {@link #MAX_CHECKS_PER_PASS} targets that fell due at {@code readNow}, the {@link ReadClock}
     * (see {@link TargetHealthState#nextStalenessCheckMs}; the others cannot change), and says whether more are due.
     * Events are stamped with the wall clock {@code now}.
     */
    private boolean checkDue(long now, long readNow) {
        metrics.readClockBehind(clock.behindMs(now));
        List<Changed> changed = new ArrayList<>();
        List<String> dueNow = due.takeDue(readNow, MAX_CHECKS_PER_PASS);
        for (String id : dueNow) {
            try {
                StoredTarget stored = store.get(id);
                if (stored == null) {
                    continue;
                }
                TargetUpdate update = stored.state().checkStaleness(readNow, clock.startedAtMs(), staleness,
                        trust);
                if (update.stateChanged()) {
                    changed.add(new Changed(id, update, stored.historyNext()));
                } else {
                    schedule(id, stored.state());
                }
            } catch (StreamsException e) {
                throw e;
            } catch (RuntimeException | StackOverflowError e) {
                // one broken state must not stop the check of every other target; it is tried again later
                metrics.punctuationFailed();
                due.schedule(id, readNow + punctuateInterval.toMillis());
                LOG.warn("staleness check of target {} failed: {}", RecordSafeHandlers.cut(id),
                        RecordSafeHandlers.describe(e));
            }
        }
        metrics.stalenessChecked(dueNow.size());
        if (!changed.isEmpty()) {
            paced.processed(); // events written by a punctuation are as urgent as those of a record
        }
        for (Changed entry : changed) {
            try {
                commit(entry.update(), entry.historyNext(), null, now);
            } catch (StreamsException e) {
                throw e; // Kafka Streams' own (a fenced producer, a migrated task): the task must handle it, not us
            } catch (RuntimeException | StackOverflowError e) {
                metrics.punctuationFailed();
                due.schedule(entry.id(), readNow + punctuateInterval.toMillis());
                LOG.warn("staleness update of target {} failed: {}", RecordSafeHandlers.cut(entry.id()),
                        RecordSafeHandlers.describe(e));
            }
        }
        return due.hasDue(readNow);
    }

    /** A target whose staleness check changed its state, to be stored once the pass is done. */
    private record Changed(String id, TargetUpdate update, long historyNext) {
    }

    private void reject(Record<byte[], byte[]> record, Rejection rejection) {
        RejectedCopy copy = RejectedCopy.of(record.key(), record.value(), record.headers(), rejection,
                maxRejectedBytes, context.recordMetadata().orElse(null));
        context.forward(new Record<>(copy.key(), new Rejected(copy.value()), record.timestamp(), copy.headers()));
        metrics.rejected(copy.reason());
    }

    /** Sends a held result to the rejected topic, as it was read, with where it was read from. */
    private void rejectHeld(HeldResults.Held h, Rejection rejection) {
        RejectedCopy copy = RejectedCopy.of(h.key(), h.value(), h.headers(), rejection, maxRejectedBytes, h);
        context.forward(new Record<>(copy.key(), new Rejected(copy.value()), h.timestampMs(), copy.headers()));
        metrics.rejected(copy.reason());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
