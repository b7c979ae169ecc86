package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.GroupCounts;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.schema.GroupHealth;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per group (after the repartition by group id): keeps one row per member in the {@code group-members} store and
 * the group's counters in {@code group-summary}, both updated incrementally (a member change writes its own rows and
 * the counters, never the whole group), and forwards a {@link GroupHealth} event when the routable set or the
 * fail-open flag changes, a tombstone when the last member leaves. The event's routable list is read from the rows,
 * bounded by {@link RoutableList}.
 */
final class GroupHealthProcessor implements Processor<byte[], MembershipChange, byte[], GroupHealth> {

    /** Huge groups whose first page is kept per task (each at most 192 KiB of ids). */
    static final int KEPT_PAGES = 8;

    private final RoutableList routableList;
    private ProcessorContext<byte[], GroupHealth> context;
    private KeyValueStore<String, GroupCounts> summaries;
    private KeyValueStore<Bytes, byte[]> rows;
    private AggregatorMetrics metrics;
    /** First pages of huge groups (truncated ones only), most recently used last; rebuilt from the rows at init. */
    private final Map<String, RoutableList.Page> pages = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RoutableList.Page> eldest) {
            return size() > KEPT_PAGES;
        }
    };

    GroupHealthProcessor(RoutableList routableList) {
        this.routableList = routableList;
    }

    @Override
    public void init(ProcessorContext<byte[], GroupHealth> context) {
        this.context = context;
        this.pages.clear(); // a task revived after an aborted transaction starts from its restored rows
        this.summaries = context.getStateStore(AggregatorTopology.GROUP_STORE);
        this.rows = context.getStateStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        this.metrics = new AggregatorMetrics(context.metrics());
    }

    @Override
    public void process(Record<byte[], MembershipChange> record) {
        // the key was written by the target processor from a validated group id: always UTF-8
        String groupId = new String(record.key(), StandardCharsets.UTF_8);
        MembershipChange change = record.value();
        Bytes memberKey = GroupRows.key(groupId, GroupRows.MEMBER, change.targetId());
        HealthStatus before = GroupRows.decodeStatus(rows.get(memberKey));
        HealthStatus after = change.status();
        if (before == after) {
            return; // not a member and leaving, or the same status again: nothing changes
        }
        GroupCounts stored = summaries.get(groupId);
        GroupCounts counts = stored == null ? GroupCounts.EMPTY : stored;
        GroupCounts next = counts.move(before, after);
        boolean routingChanges = stored == null || counts.routingChangesWhen(before, after);
        writeRows(groupId, change.targetId(), memberKey, before, after);
        if (next.isEmpty()) {
            pages.remove(groupId);
            summaries.delete(groupId);
            context.forward(record.withValue((GroupHealth) null));
            metrics.groupEvent();
            return;
        }
        summaries.put(groupId, next);
        if (routingChanges) {
            RoutableList.Page page = firstPage(groupId, change.targetId(), counts, next);
            context.forward(record.withValue(StateEvents.groupHealth(groupId, next, page,
                    context.currentSystemTimeMs())));
            metrics.groupEvent();
        }
    }

    /**
     * The first page of the group's routable ids after a change of {@code memberId}. A huge group's page is kept
     * (a few groups per task): a change beyond its last id, with the fail-open flag unchanged, leaves the first ids
     * as they were, so the rows are not read again (most changes of a 100,000-member group are beyond the first
     * thousand ids). Only a routing change reaches here, and any change that is not one leaves the page alone too.
     */
    private RoutableList.Page firstPage(String groupId, String memberId, GroupCounts before, GroupCounts after) {
        RoutableList.Page kept = pages.get(groupId);
        if (kept != null && kept.truncated() && before.failOpen() == after.failOpen()
                && Arrays.compareUnsigned(memberId.getBytes(StandardCharsets.UTF_8),
                        kept.next().getBytes(StandardCharsets.UTF_8)) > 0) {
            RoutableList.Page same = new RoutableList.Page(kept.ids(), null,
                    after.routable() > kept.ids().size() ? kept.next() : null);
            remember(groupId, same);
            return same;
        }
        RoutableList.Page page = routableList.first(rows, groupId, after);
        remember(groupId, page);
        return page;
    }

    private void remember(String groupId, RoutableList.Page page) {
        if (page.truncated()) {
            pages.put(groupId, page);
        } else {
            pages.remove(groupId); // small groups are read again: cheap, and nothing to keep consistent
        }
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
