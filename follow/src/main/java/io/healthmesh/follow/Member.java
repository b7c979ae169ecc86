package io.healthmesh.follow;

import io.healthmesh.core.health.HealthStatus;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One member of a group as a data plane should see it: where it is (from its definition), its state (from its
 * latest state event; {@code DETECTING} until one is read) and whether it is {@linkplain #served() served}, that is
 * in the routable set of its group's latest event.
 *
 * @param region the definition's first region, or null when it names none (probed from every region)
 * @param labels the definition's labels
 * @param draining true while a DRAIN maintenance window covers the member (its latest state event carries one):
 *                 a data plane sends it no new work, whatever {@code served} says; its status stays the probes'
 */
public record Member(String targetId, String address, int port, int weight, String region,
                     Map<String, String> labels, HealthStatus status, boolean served, boolean draining) {

    /** A member under no DRAIN window. */
    public Member(String targetId, String address, int port, int weight, String region, Map<String, String> labels,
                  HealthStatus status, boolean served) {
        this(targetId, address, port, weight, region, labels, status, served, false);
    }

    public Member {
        requireNonNull(targetId, "targetId");
        requireNonNull(address, "address");
        labels = Map.copyOf(requireNonNull(labels, "labels"));
        requireNonNull(status, "status");
    }

    /** This member with another served flag. */
    Member withServed(boolean served) {
        return served == this.served ? this
                : new Member(targetId, address, port, weight, region, labels, status, served, draining);
    }
}
