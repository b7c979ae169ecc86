package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.core.maintenance.MaintenanceRules;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Turns a maintenance record's bytes into a validated {@link MaintenanceWindow} or a {@link Rejection}
 * ({@code INVALID_MAINTENANCE}, or the serde's reasons). As {@link InputDecoder}, a registry that cannot be reached
 * escapes as {@link RegistryUnavailableException}. Public so that replay reads the topic exactly as the aggregator.
 */
public final class MaintenanceDecoder {

    /** A maintenance record that decodes but breaks a rule ({@code MaintenanceRules}, key and id differ). */
    public static final String INVALID_MAINTENANCE = "INVALID_MAINTENANCE";
    /** Largest record read: a window with the longest fields of every kind fits in a few KiB. */
    static final int MAX_RECORD_BYTES = 16 * 1024;

    private final Deserializer<Maintenance> deserializer;

    public MaintenanceDecoder(Deserializer<Maintenance> deserializer) {
        this.deserializer = requireNonNull(deserializer, "deserializer");
    }

    /** The window of a (non-tombstone) record whose key is {@code key}. */
    public Decoded<MaintenanceWindow> decode(String topic, String key, byte[] value) {
        if (value.length > MAX_RECORD_BYTES) {
            return Decoded.rejected(INVALID_MAINTENANCE, "value: " + value.length + " bytes (expected: at most "
                    + MAX_RECORD_BYTES + ")");
        }
        Decoded<Maintenance> record = InputDecoder.decode(deserializer, topic, value);
        if (record.isRejected()) {
            return Decoded.rejected(record.rejection().reason(), record.rejection().detail());
        }
        MaintenanceWindow window;
        try {
            window = MaintenanceRecords.fromAvro(record.value());
        } catch (RuntimeException e) {
            return Decoded.rejected(INVALID_MAINTENANCE, "maintenance: " + e.getMessage());
        }
        if (!key.equals(window.id())) {
            return Decoded.rejected(INVALID_MAINTENANCE, "id: " + RecordSafeHandlers.cut(window.id())
                    + " (expected: the record key " + RecordSafeHandlers.cut(key) + ")");
        }
        List<String> violations = MaintenanceRules.violations(window);
        if (!violations.isEmpty()) {
            return Decoded.rejected(INVALID_MAINTENANCE, String.join("; ", violations));
        }
        return Decoded.ok(window);
    }
}
