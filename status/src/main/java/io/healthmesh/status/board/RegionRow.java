package io.healthmesh.status.board;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One region's view of a target on the status page.
 *
 * @param vote what the region contributes to the quorum: HEALTHY, UNHEALTHY, DETECTING (undecided), DISABLED, or
 *     SILENT when the region is stale
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RegionRow(String region, String status, String vote, boolean stale, String lastOutcome,
                        Long lastResultAtMs) {

    /**
     * The vote of a region, the same rule as the aggregator's state machine: a decided status votes only while its
     * last results confirm it (no counter against it), a stale region is silent.
     */
    public static String vote(String status, int consecutiveSuccesses, int consecutiveFailures, boolean stale) {
        if (stale) {
            return "SILENT";
        }
        return switch (status) {
            case "HEALTHY" -> consecutiveFailures == 0 ? "HEALTHY" : "DETECTING";
            case "UNHEALTHY" -> consecutiveSuccesses == 0 ? "UNHEALTHY" : "DETECTING";
            default -> status;
        };
    }
}
