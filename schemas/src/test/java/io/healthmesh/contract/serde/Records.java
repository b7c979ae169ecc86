package io.healthmesh.contract.serde;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.HttpMethod;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.QuorumPolicy;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;

import java.util.List;
import java.util.Map;

/** One filled-in record of each type, optional parts included, for round trips. */
final class Records {

    private Records() {
    }

    static TargetDefinition targetDefinition() {
        return TargetDefinition.newBuilder()
                .setId("web-1").setGroup("pool-a").setAddress("127.0.0.1").setPort(8080).setProtocol(Protocol.HTTP)
                .setIntervalMs(5000).setTimeoutMs(2000).setHealthyThreshold(3).setUnhealthyThreshold(2)
                .setEnabled(true).setWeight(10).setLabels(Map.of("team", "edge"))
                .setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/healthz").build())
                .setRegions(List.of("eu", "us")).setQuorum(QuorumPolicy.MAJORITY).setQuorumAtLeast(1)
                .build();
    }

    static ProbeResult probeResult() {
        return ProbeResult.newBuilder()
                .setTargetId("web-1").setGeneration(-42L).setRegion("eu").setProberId("prober-1")
                .setProtocol(Protocol.HTTP).setStartedAtMs(1_700_000_000_000L).setOutcome(ProbeOutcome.UNEXPECTED_STATUS)
                .setLatencyMicros(1234).setConnectMicros(100L).setHttpStatus(503).setDetail("HTTP 503")
                .setSchedulingLagMicros(7).build();
    }

    static TargetHealth targetHealth() {
        return TargetHealth.newBuilder()
                .setTargetId("web-1").setGroup("pool-a").setStatus(HealthStatus.UNHEALTHY)
                .setPreviousStatus(HealthStatus.HEALTHY).setSinceMs(1_700_000_000_000L).setReason(ProbeOutcome.TIMEOUT)
                .setConsecutiveFailures(3).setGeneration(99L).setUpdatedAtMs(1_700_000_000_500L)
                .setRegions(List.of(RegionHealth.newBuilder().setRegion("eu").setStatus(HealthStatus.UNHEALTHY)
                        .setLastOutcome(ProbeOutcome.TIMEOUT).build()))
                .build();
    }

    static GroupHealth groupHealth() {
        return GroupHealth.newBuilder()
                .setGroupId("g1").setFailOpen(false).setMembers(2).setHealthy(1).setUnhealthy(1)
                .setDetecting(0).setDisabled(0).setRoutable(List.of("t1")).setUpdatedAtMs(1_700_000_000_000L)
                .build();
    }
}
