package io.healthmesh.core.maintenance;

import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Which targets a window covers: one target by id, every member of a group (matched on the target's group at the
 * time its state is computed, so a target that joins the group during the window is covered from then on), or
 * every target carrying all of a set of labels. Exactly one kind; {@link MaintenanceRules} bounds the sizes.
 *
 * @param targetId the one target, or null
 * @param group the group, or null
 * @param labels the labels a target must all carry with these values; empty unless the selector is by labels
 */
public record MaintenanceSelector(String targetId, String group, Map<String, String> labels) {

    public MaintenanceSelector {
        labels = Map.copyOf(requireNonNull(labels, "labels"));
    }

    /** The selector of one target. */
    public static MaintenanceSelector target(String id) {
        return new MaintenanceSelector(requireNonNull(id, "id"), null, Map.of());
    }

    /** The selector of a group's members. */
    public static MaintenanceSelector group(String group) {
        return new MaintenanceSelector(null, requireNonNull(group, "group"), Map.of());
    }

    /** The selector of the targets carrying every one of {@code labels}. */
    public static MaintenanceSelector labels(Map<String, String> labels) {
        return new MaintenanceSelector(null, null, labels);
    }

    /** True when the selector covers a target with this id, group and labels. */
    public boolean matches(String id, String targetGroup, Map<String, String> targetLabels) {
        if (targetId != null) {
            return targetId.equals(id);
        }
        if (group != null) {
            return group.equals(targetGroup);
        }
        if (labels.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (!e.getValue().equals(targetLabels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** How the CLI and the status page show it: {@code target=T}, {@code group=G} or {@code labels=k=v,...}. */
    @Override
    public String toString() {
        if (targetId != null) {
            return "target=" + targetId;
        }
        if (group != null) {
            return "group=" + group;
        }
        StringBuilder out = new StringBuilder("labels=");
        new TreeMap<>(labels).forEach((k, v) -> out.append(out.length() > 7 ? "," : "").append(k).append('=').append(v));
        return out.toString();
    }
}
