package io.healthmesh.haproxy.plan;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;

import java.util.Arrays;
import java.util.Map;

/** Hand-built follower views for the tests of the pure mapping. */
final class Views {

    private Views() {
    }

    static Member member(String id, String address, HealthStatus status, boolean served) {
        return new Member(id, address, 8080, 10, null, Map.of(), status, served);
    }

    static Member member(String id, HealthStatus status, boolean served) {
        return member(id, "10.0.0." + (Math.abs(id.hashCode()) % 250 + 1), status, served);
    }

    static GroupView group(String id, boolean failOpen, Member... members) {
        return GroupView.of(id, failOpen, Arrays.asList(members), false);
    }
}
