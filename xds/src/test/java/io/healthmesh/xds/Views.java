package io.healthmesh.xds;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;

import java.util.List;
import java.util.Map;

/** Hand-built views for the tests of the pure parts. */
public final class Views {

    private Views() {
    }

    /** A member on 10.0.0.{n}:8080 in region eu, weight 10. */
    public static Member member(int n, HealthStatus status, boolean served) {
        return new Member("t" + n, "10.0.0." + n, 8080, 10, "eu", Map.of(), status, served);
    }

    public static GroupView group(String id, boolean failOpen, Member... members) {
        return GroupView.of(id, failOpen, List.of(members), false);
    }
}
