package io.healthmesh.bench.run;

import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.serde.AvroSerde;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the state events as a downstream consumer does ({@code read_committed}: the aggregator writes with
 * exactly-once, so an event is visible only once its transaction committed) and keeps each with the instant it
 * was received.
 */
public final class StateTap extends TopicTap<TargetHealth> {

    /** Events kept, at most. */
    static final int CAPACITY = 5_000_000;

    /** One state event as received. */
    public record StateEvent(String targetId, String status, String previousStatus, boolean stale,
                             Long lastResultAtMs, Long latencyMicros, long updatedAtMs, long receivedEpochMicros) {

        /** When the probe that caused this event completed (its start plus its latency), epoch microseconds. */
        public long probeCompletedEpochMicros() {
            return lastResultAtMs * 1_000 + (latencyMicros == null ? 0 : latencyMicros);
        }
    }

    private final List<StateEvent> events = new ArrayList<>();

    public StateTap(BenchStack stack) {
        super(stack, stack.topics().healthState(), AvroSerde.forValues(TargetHealth.class, stack.serdeConfig())
                .deserializer(), "read_committed");
        startReading();
    }

    @Override
    void onRecord(String key, TargetHealth value, long receivedEpochMicros) {
        StateEvent event = new StateEvent(value.getTargetId(), value.getStatus().name(),
                value.getPreviousStatus() == null ? null : value.getPreviousStatus().name(), value.getStale(),
                value.getLastResultAtMs(), value.getLatencyMicros(), value.getUpdatedAtMs(), receivedEpochMicros);
        synchronized (events) {
            if (events.size() < CAPACITY) {
                events.add(event);
            }
        }
    }

    public List<StateEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** How many targets among {@code ids} have {@code status} as their latest event. */
    public long countLatest(java.util.Set<String> ids, String status) {
        java.util.Map<String, String> latest = new java.util.HashMap<>();
        for (StateEvent e : events()) {
            if (ids.contains(e.targetId())) {
                latest.put(e.targetId(), e.status());
            }
        }
        return latest.values().stream().filter(status::equals).count();
    }
}
