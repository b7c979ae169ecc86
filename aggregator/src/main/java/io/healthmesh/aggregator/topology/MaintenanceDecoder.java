package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.core.maintenance.MaintenanceRules;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;
import org.apache.kafka.common.errors.SerializationException;
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
        Maintenance record;
        try {
            record = deserializer.deserialize(topic, value);
        } catch (RecordDecodeException e) {
            return Decoded.rejected(e.reason().name(), String.valueOf(e.getMessage()));
        } catch (SerializationException e) {
            throw new RegistryUnavailableException(String.valueOf(e.getMessage()), e);
        } catch (RuntimeException e) {
            return Decoded.rejected(RecordDecodeException.Reason.UNDECODABLE.name(), e.toString());
        }
        if (record == null) {
            return Decoded.rejected(RecordDecodeException.Reason.UNDECODABLE.name(), "value: decodes to null");
        }
        MaintenanceWindow window;
        try {
            window = MaintenanceRecords.fromAvro(record);
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
