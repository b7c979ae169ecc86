package io.healthmesh.notifier.domain;

import java.util.Map;
import java.util.Set;

/**
 * Which events a route alerts on. A target alerts when its group is listed (or the list is empty), every listed
 * label has the given value, and its status is one of {@code statuses}. A group alerts while in fail-open when
 * {@code failOpen} is true and the group is listed (or the list is empty); labels do not apply to groups.
 *
 * @param groups groups to watch; empty = every group
 * @param labels labels a target must carry, with these values
 * @param statuses target statuses that alert; empty = targets never alert on this route
 * @param failOpen whether a group in fail-open alerts on this route
 */
public record RouteFilter(Set<String> groups, Map<String, String> labels, Set<String> statuses, boolean failOpen) {

    /** The default: UNHEALTHY targets and fail-open groups, everywhere. */
    public static final RouteFilter DEFAULT = new RouteFilter(Set.of(), Map.of(), Set.of("UNHEALTHY"), true);

    public RouteFilter {
        groups = Set.copyOf(groups);
        labels = Map.copyOf(labels);
        statuses = Set.copyOf(statuses);
    }

    /** Whether the observed state is an alert on this route. */
    public boolean alerting(Observation o) {
        if (o.deleted()) {
            return false;
        }
        if (!groups.isEmpty() && !groups.contains(o.group())) {
            return false;
        }
        return switch (o.key().kind()) {
            case TARGET -> statuses.contains(o.status()) && labelsMatch(o.labels());
            case GROUP -> failOpen && Observation.FAIL_OPEN.equals(o.status());
        };
    }

    private boolean labelsMatch(Map<String, String> actual) {
        for (Map.Entry<String, String> wanted : labels.entrySet()) {
            if (!wanted.getValue().equals(actual.get(wanted.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
