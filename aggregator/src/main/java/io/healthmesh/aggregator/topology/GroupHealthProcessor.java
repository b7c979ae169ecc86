package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.topology.AggregatorOutput.GroupChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.ThresholdChange;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.GroupUpdate;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.schema.GroupHealth;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Per group (after the repartition by group id): keeps one row per member in the {@code group-members} store and
 * the group's {@link GroupState} (counters, panic threshold, fail-open reason) in {@code group-summary}, both updated
 * incrementally (a member change writes its own rows and the counters, never the whole group), and forwards a
 * {@link GroupHealth} event when the routable set, the fail-open flag or its reason changes, a tombstone when the last
 * member leaves. A threshold change (the group's policy record) re-decides fail-open from the stored state. The
 * event's routable list is the first page of the rows ({@link RoutableList}), kept per group and patched by each
 * change ({@link FirstPages}). A group without members keeps its summary row only while it has a threshold.
 *
 * <p>Every group event carries the maintenance window in force for the group when it is produced
 * ({@link GroupMaintenanceTracker}); a window for the group that starts or ends (or is deleted) produces the group's
 * event at the next wall-clock punctuation, every {@code punctuate.interval.ms}, even when the routing is unchanged.
 */
final class GroupHealthProcessor implements Processor<byte[], GroupChange, byte[], GroupHealth> {

    private static final Logger LOG = LoggerFactory.getLogger(GroupHealthProcessor.class);

    private final FirstPages pages;
    private final EarlyCommits earlyCommits;
    private EarlyCommits.Requester commits;
    private final CommitPacer pacer;
    private CommitPacer.Registration paced = CommitPacer.Registration.NONE;
    private ProcessorContext<byte[], GroupHealth> context;
    private KeyValueStore<String, GroupState> summaries;
    private KeyValueStore<Bytes, byte[]> rows;
    private AggregatorMetrics metrics;
    /** Which maintenance window each group event carries, and which groups a window's start or end concerns. */
    private final GroupMaintenanceTracker maintenance;
    private final Duration punctuateInterval;
    /** Produces the events of a maintenance pass and keeps a walk of the groups going. */
    private final MaintenanceEmission emission = new MaintenanceEmission("group", LOG);

    GroupHealthProcessor(RoutableList routableList, EarlyCommits earlyCommits, CommitPacer pacer,
                         MaintenanceWindows maintenanceWindows, Duration punctuateInterval) {
        this(routableList, FirstPages.DEFAULT_KEPT_IDS, earlyCommits, pacer, maintenanceWindows, punctuateInterval);
    }

    /** With at most {@code keptIds} routable ids of first pages kept in memory (tests try small budgets). */
    GroupHealthProcessor(RoutableList routableList, int keptIds, EarlyCommits earlyCommits, CommitPacer pacer,
                         MaintenanceWindows maintenanceWindows, Duration punctuateInterval) {
        this.pages = new FirstPages(routableList, keptIds);
        this.earlyCommits = requireNonNull(earlyCommits, "earlyCommits");
        this.pacer = requireNonNull(pacer, "pacer");
        this.maintenance = new GroupMaintenanceTracker(maintenanceWindows);
        this.punctuateInterval = requireNonNull(punctuateInterval, "punctuateInterval");
    }

    @Override
    public void init(ProcessorContext<byte[], GroupHealth> context) {
        this.context = context;
        this.pages.clear(); // a task revived after an aborted transaction starts from its restored rows
        this.summaries = context.getStateStore(AggregatorTopology.GROUP_STORE);
        this.rows = context.getStateStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        this.metrics = new AggregatorMetrics(context.metrics());
        this.commits = earlyCommits.afterRepartition(context, metrics);
        paced.close(); // a revived task registers again
        this.paced = pacer.register(context);
        maintenance.init(context);
        emission.init(context, metrics, paced, this::checkMaintenance); // a revived task's punctuations are gone
        context.schedule(punctuateInterval, PunctuationType.WALL_CLOCK_TIME, this::checkMaintenance);
    }

    @Override
    public void close() {
        paced.close();
    }

    @Override
    public void process(Record<byte[], GroupChange> record) {
        paced.processed();
        // the key was written by the target processor from a validated group id: always UTF-8
        String groupId = new String(record.key(), StandardCharsets.UTF_8);
        if (record.value() instanceof ThresholdChange threshold) {
            onThreshold(record, groupId, threshold.threshold());
            return;
        }
        MembershipChange change = (MembershipChange) record.value();
        Bytes memberKey = GroupRows.key(groupId, GroupRows.MEMBER, change.targetId());
        HealthStatus before = GroupRows.decodeStatus(rows.get(memberKey));
        HealthStatus after = change.status();
        if (before == after) {
            return; // not a member and leaving, or the same status again: nothing changes
        }
        GroupState stored = summaries.get(groupId);
        GroupUpdate update = GroupUpdate.member(stored == null ? GroupState.EMPTY : stored, before, after);
        GroupState next = update.after();
        writeRows(groupId, change.targetId(), memberKey, before, after);
        if (update.effect() == GroupUpdate.Effect.TOMBSTONE) {
            pages.forget(groupId);
            maintenance.forget(groupId);
            keep(groupId, next);
            forward(record, null);
            return;
        }
        summaries.put(groupId, next);
        if (update.emits()) {
            boolean entering = GroupCounts.served(after, next.failOpen());
            RoutableList.Page page = pages.afterChange(rows, groupId, change.targetId(), entering, update.before(),
                    next);
            forward(record, event(groupId, next, page));
        }
    }

    /** The group's policy changed: fail-open is decided again from the stored state, and announced if it changed. */
    private void onThreshold(Record<byte[], GroupChange> record, String groupId, PanicThreshold threshold) {
        GroupState stored = summaries.get(groupId);
        GroupUpdate update = GroupUpdate.threshold(stored == null ? GroupState.EMPTY : stored, threshold);
        GroupState next = update.after();
        keep(groupId, next);
        if (update.emits()) {
            RoutableList.Page page = pages.reread(rows, groupId, next);
            forward(record, event(groupId, next, page));
        }
    }

    /** The group's event now, carrying the window in force for the group now. */
    private GroupHealth event(String groupId, GroupState state, RoutableList.Page page) {
        long now = context.currentSystemTimeMs();
        return StateEvents.groupHealth(groupId, state, page, now,
                MaintenanceRecords.inForce(maintenance.emitting(groupId, now)));
    }

    /**
     * The wall-clock punctuation: an event for every group whose maintenance window in force changed (a window
     * started or ended, or the windows changed), a bounded number of groups compared per pass; a walk with groups
     * left goes on at {@link TargetHealthProcessor#DRAIN_INTERVAL}.
     */
    private void checkMaintenance(long now) {
        List<GroupMaintenanceTracker.Change> changes = maintenance.pass(now);
        emission.emit(changes, GroupMaintenanceTracker.Change::groupId, this::emitMaintenanceChange, now,
                maintenance.walking());
    }

    /** The event of a group whose routing did not change but whose maintenance window in force did. */
    private void emitMaintenanceChange(String groupId, long now) {
        GroupState state = summaries.get(groupId);
        if (state == null || state.counts().isEmpty()) {
            return;
        }
        RoutableList.Page page = pages.reread(rows, groupId, state);
        context.forward(new Record<>(groupId.getBytes(StandardCharsets.UTF_8), event(groupId, state, page), now));
        metrics.groupEvent();
        commits.eventWritten(now);
    }

    /** Stores a group's state; a group without members or threshold has no row. */
    private void keep(String groupId, GroupState state) {
        if (state.counts().isEmpty() && state.threshold().isNone()) {
            summaries.delete(groupId);
        } else {
            summaries.put(groupId, state);
        }
    }

    private void forward(Record<byte[], GroupChange> record, GroupHealth event) {
        context.forward(record.withValue(event));
        metrics.groupEvent();
        commits.eventWritten(record.timestamp());
    }

    private void writeRows(String groupId, String memberId, Bytes memberKey, HealthStatus before, HealthStatus after) {
        if (after == null) {
            rows.delete(memberKey);
        } else {
            rows.put(memberKey, GroupRows.encodeStatus(after));
        }
        boolean wasRoutable = before != null && before.isRoutable();
        boolean isRoutable = after != null && after.isRoutable();
        if (wasRoutable != isRoutable) {
            Bytes index = GroupRows.key(groupId, GroupRows.ROUTABLE, memberId);
            if (isRoutable) {
                rows.put(index, GroupRows.PRESENT);
            } else {
                rows.delete(index);
            }
        }
    }
}
