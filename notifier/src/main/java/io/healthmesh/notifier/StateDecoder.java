package io.healthmesh.notifier;

import io.healthmesh.notifier.domain.AlertKey;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.notifier.domain.Position;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns a health-state or group-state record into an {@link Observation}. Throws
 * {@link io.healthmesh.contract.serde.RecordDecodeException} for bytes that are not a state event (the caller skips
 * them) and a plain {@link org.apache.kafka.common.errors.SerializationException} when the registry is away (the
 * caller reads the record again later).
 */
final class StateDecoder {

    private final String healthTopic;
    private final Deserializer<TargetHealth> targets;
    private final Deserializer<GroupHealth> groups;
    private final Function<String, Map<String, String>> labels;

    StateDecoder(NotifierConfig config, Function<String, Map<String, String>> labels) {
        this.healthTopic = config.topics().healthState();
        this.targets = AvroSerde.forValues(TargetHealth.class, config.serdeConfig()).deserializer();
        this.groups = AvroSerde.forValues(GroupHealth.class, config.serdeConfig()).deserializer();
        this.labels = labels;
    }

    /** The observation, or null for a record without a key (not a state event). */
    Observation decode(ConsumerRecord<byte[], byte[]> r) {
        if (r.key() == null) {
            return null;
        }
        String id = new String(r.key(), StandardCharsets.UTF_8);
        Position position = new Position(r.topic(), r.partition(), r.offset());
        boolean target = r.topic().equals(healthTopic);
        AlertKey key = target ? AlertKey.target(id) : AlertKey.group(id);
        if (r.value() == null) {
            return new Observation(key, position, target ? "" : id, Map.of(), null, r.timestamp(), null, null);
        }
        if (target) {
            TargetHealth t = targets.deserialize(r.topic(), r.value());
            return new Observation(key, position, t.getGroup().toString(), labels.apply(id), t.getStatus().name(),
                    t.getSinceMs(), t.getReason() == null ? null : t.getReason().name(),
                    t.getReasonDetail() == null ? null : t.getReasonDetail().toString(), mark(t.getMaintenance()),
                    r.timestamp());
        }
        GroupHealth g = groups.deserialize(r.topic(), r.value());
        String counts = g.getHealthy() + "/" + g.getMembers() + " healthy, " + g.getUnhealthy() + " unhealthy, "
                + g.getDetecting() + " detecting, " + g.getDisabled() + " disabled";
        return new Observation(key, position, id, Map.of(), g.getFailOpen() ? Observation.FAIL_OPEN : Observation.ROUTING,
                g.getUpdatedAtMs(), counts, g.getFailOpen() ? failOpenDetail(g.getFailOpenReason()) : null,
                mark(g.getMaintenance()), g.getUpdatedAtMs()); // a group's events are dated by when they were produced
    }

    /** The window an event was produced under, as the alert book needs it (target and group events alike). */
    private static Observation.MaintenanceMark mark(MaintenanceInForce m) {
        return m == null ? null : new Observation.MaintenanceMark(m.getId(), m.getMode().name(), m.getUntilMs());
    }

    /**
     * What an alert says of a group in fail-open: that every member is routed to, and why (the event's reason; an
     * event written before reasons existed failed open only with no healthy member).
     */
    static String failOpenDetail(String reason) {
        if ("BELOW_MIN_HEALTHY".equals(reason)) {
            return "every member routable (fail-open: BELOW_MIN_HEALTHY, fewer members HEALTHY or DISABLED than the"
                    + " group's panic threshold)";
        }
        if (reason == null || "NO_HEALTHY_MEMBER".equals(reason)) {
            return "every member routable (fail-open: NO_HEALTHY_MEMBER, no member HEALTHY or DISABLED)";
        }
        return "every member routable (fail-open: " + reason + ")";
    }
}
