package io.healthmesh.contract.maintenance;

import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.MaintenanceInForce;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps the maintenance topic's Avro records ({@link Maintenance}) to the domain's {@link MaintenanceWindow} and
 * back, and a window to what a state event carries ({@link MaintenanceInForce}). Mapping does not validate: call
 * {@link io.healthmesh.core.maintenance.MaintenanceRules#violations} on the result.
 */
public final class MaintenanceRecords {

    private MaintenanceRecords() {
    }

    /** The window a record describes. */
    public static MaintenanceWindow fromAvro(Maintenance m) {
        io.healthmesh.schema.MaintenanceSelector s = m.getSelector();
        Map<String, String> labels = new LinkedHashMap<>();
        s.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        MaintenanceSelector selector = new MaintenanceSelector(str(s.getTargetId()), str(s.getGroup()), labels);
        return new MaintenanceWindow(m.getId(), selector, MaintenanceMode.valueOf(m.getMode().name()),
                m.getStartMs(), m.getEndMs(), m.getReason(), m.getCreatedAtMs(), str(m.getCreatedBy()));
    }

    /** The record of a window. */
    public static Maintenance toAvro(MaintenanceWindow w) {
        io.healthmesh.schema.MaintenanceSelector selector = io.healthmesh.schema.MaintenanceSelector.newBuilder()
                .setTargetId(w.selector().targetId())
                .setGroup(w.selector().group())
                .setLabels(new LinkedHashMap<>(w.selector().labels()))
                .build();
        return Maintenance.newBuilder()
                .setId(w.id())
                .setSelector(selector)
                .setMode(io.healthmesh.schema.MaintenanceMode.valueOf(w.mode().name()))
                .setStartMs(w.startMs())
                .setEndMs(w.endMs())
                .setReason(w.reason())
                .setCreatedAtMs(w.createdAtMs())
                .setCreatedBy(w.createdBy())
                .build();
    }

    /** What a state event carries of the window in force, or null when none is. */
    public static MaintenanceInForce inForce(MaintenanceWindow w) {
        if (w == null) {
            return null;
        }
        return MaintenanceInForce.newBuilder()
                .setId(w.id())
                .setMode(io.healthmesh.schema.MaintenanceMode.valueOf(w.mode().name()))
                .setStartMs(w.startMs())
                .setUntilMs(w.endMs())
                .build();
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
