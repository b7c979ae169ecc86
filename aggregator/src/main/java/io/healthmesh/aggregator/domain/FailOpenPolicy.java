package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The routable set of a group (BEHAVIOUR.md section 3): its HEALTHY and DISABLED members; when the group has members and
 * none of them is HEALTHY or DISABLED it fails open and every member is routable (000: "if all backends are
 * abnormal, requests go to all backends"; 002: "best-effort mode"). A pure function, kept apart from the state
 * machine like Envoy's panic threshold.
 */
public final class FailOpenPolicy {

    private FailOpenPolicy() {
    }

    /** The verdict for a group whose members have these statuses (target id to overall status). */
    public static GroupVerdict evaluate(Map<String, HealthStatus> members) {
        requireNonNull(members, "members");
        Map<String, HealthStatus> sorted = new TreeMap<>(members);
        List<String> routable = new ArrayList<>();
        int healthy = 0;
        int unhealthy = 0;
        int detecting = 0;
        int disabled = 0;
        for (Map.Entry<String, HealthStatus> member : sorted.entrySet()) {
            HealthStatus status = requireNonNull(member.getValue(), "status of " + member.getKey());
            switch (status) {
                case HEALTHY -> healthy++;
                case UNHEALTHY -> unhealthy++;
                case DETECTING -> detecting++;
                case DISABLED -> disabled++;
            }
            if (status.isRoutable()) {
                routable.add(member.getKey());
            }
        }
        boolean failOpen = !sorted.isEmpty() && routable.isEmpty();
        if (failOpen) {
            routable.addAll(sorted.keySet());
        }
        return new GroupVerdict(routable, failOpen, sorted.size(), healthy, unhealthy, detecting, disabled);
    }
}
