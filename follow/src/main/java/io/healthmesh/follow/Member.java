package io.healthmesh.follow;

import io.healthmesh.core.health.HealthStatus;
import java.util.Map;

/** Stand-in of the follow API until the follow branch lands. */
public record Member(String targetId, String address, int port, int weight, String region,
                     Map<String, String> labels, HealthStatus status, boolean served) { }
