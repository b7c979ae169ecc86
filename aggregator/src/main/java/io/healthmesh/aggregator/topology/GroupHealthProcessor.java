package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.GroupMembers;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.schema.GroupHealth;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.charset.StandardCharsets;

/**
 * Per group (after the repartition by group id): keeps the members' statuses in the {@code group-health} store and
 * forwards a {@link GroupHealth} event when the routable set or the fail-open flag changes, a tombstone when the
 * last member leaves.
 */
final class GroupHealthProcessor implements Processor<byte[], MembershipChange, byte[], GroupHealth> {

    private ProcessorContext<byte[], GroupHealth> context;
    private KeyValueStore<String, GroupMembers> store;
    private AggregatorMetrics metrics;

    @Override
    public void init(ProcessorContext<byte[], GroupHealth> context) {
        this.context = context;
        this.store = context.getStateStore(AggregatorTopology.GROUP_STORE);
        this.metrics = new AggregatorMetrics(context.metrics());
    }

    @Override
    public void process(Record<byte[], MembershipChange> record) {
        // the key was written by the target processor from a validated group id: always UTF-8
        String groupId = new String(record.key(), StandardCharsets.UTF_8);
        MembershipChange change = record.value();
        GroupMembers stored = store.get(groupId);
        GroupMembers before = stored == null ? GroupMembers.empty(groupId) : stored;
        GroupMembers after = change.leaves()
                ? before.without(change.targetId())
                : before.with(change.targetId(), change.status());
        if (after.isEmpty()) {
            if (stored != null) {
                store.delete(groupId);
                context.forward(record.withValue((GroupHealth) null));
                metrics.groupEvent();
            }
            return;
        }
        if (!after.equals(stored)) {
            store.put(groupId, after);
        }
        if (after.verdict().routesDifferentlyFrom(stored == null ? null : before.verdict())) {
            context.forward(record.withValue(StateEvents.groupHealth(after, context.currentSystemTimeMs())));
            metrics.groupEvent();
        }
    }
}
