package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.QuorumPolicy;

import java.util.Collection;

import static java.util.Objects.requireNonNull;

/**
 * Combines the per-region statuses of a target into its overall status (BEHAVIOUR.md section 8).
 *
 * <p>The <em>known</em> regions of a target are those that applied a result of its current generation. A known
 * region that is not stale <em>votes</em> with {@link HealthStateMachine#vote()}: HEALTHY or UNHEALTHY when its last
 * result confirms its status, DETECTING (undecided) while it is still detecting or its last result contradicts its
 * status (it is on its way to change); a stale region is <em>silent</em>. With {@code n} voters ({@code h} HEALTHY, {@code d} DETECTING) and {@code s} silent
 * regions, the policy fixes how many HEALTHY regions are required out of {@code m}, {@code q(m)}:
 * <ul>
 *   <li>{@code ANY}: {@code q = 1};</li>
 *   <li>{@code MAJORITY} (default): {@code q = floor(m / 2) + 1};</li>
 *   <li>{@code ALL}: {@code q = m};</li>
 *   <li>{@code AT_LEAST(k)}: {@code q = min(k, m)}: when fewer than {@code k} regions are known, all of them.</li>
 * </ul>
 * and the overall status is:
 * <ol>
 *   <li>with no voter ({@code n = 0}): the previous overall status, unchanged (the target is then stale);</li>
 *   <li>HEALTHY when {@code h >= q(n)}: the quorum of the voters is met;</li>
 *   <li>UNHEALTHY when {@code h + d + s < q(n + s)}: the quorum is unreachable even if every DETECTING voter and
 *       every silent region were HEALTHY;</li>
 *   <li>otherwise the previous overall status when it was decided (HEALTHY or UNHEALTHY), else DETECTING.</li>
 * </ol>
 *
 * <p>Why this shape:
 * <ul>
 *   <li>With one region ({@code n = 1, s = 0, q = 1}) the overall status is that region's status, so BEHAVIOUR.md section 2
 *       holds unchanged.</li>
 *   <li>A silent region counts as "could be HEALTHY" in rule 3, so a region whose probers all stop can never turn a
 *       target UNHEALTHY: going silent adds one to {@code s} and removes at most one from {@code h + d}, with
 *       {@code n + s} unchanged. It can only let the remaining voters meet the quorum (rule 2).</li>
 *   <li>Rule 4 is the hysteresis: a region that appears (DETECTING) or a split that an undecided region could still
 *       tip never moves a decided status. Two regions flapping out of phase under MAJORITY of three, next to a steady
 *       HEALTHY third, never give two firm UNHEALTHY votes at once, even at the instant one region's failure and the
 *       other's recovery are both being counted (the recovering one votes undecided): HEALTHY throughout. Under ALL one UNHEALTHY voter makes the
 *       quorum unreachable (UNHEALTHY throughout); under ANY one HEALTHY voter is enough (HEALTHY throughout).</li>
 *   <li>The price: under ANY (or AT_LEAST) a silent region keeps "could be HEALTHY" alive, so a region that is
 *       decommissioned for good should be removed from the target's {@code regions} list (unlisted regions are
 *       forgotten) or the target re-created under a new generation.</li>
 * </ul>
 *
 * @param policy the target's quorum policy
 * @param atLeast {@code k} of {@code AT_LEAST}; ignored by the other policies
 */
public record QuorumRule(QuorumPolicy policy, int atLeast) {

    /** The default: MAJORITY. */
    public static final QuorumRule MAJORITY = new QuorumRule(QuorumPolicy.MAJORITY, 1);

    public QuorumRule {
        requireNonNull(policy, "policy");
        if (policy == QuorumPolicy.AT_LEAST && atLeast < 1) {
            throw new IllegalArgumentException("quorumAtLeast: " + atLeast + " (expected: 1 or more)");
        }
    }

    /** HEALTHY regions required out of {@code regions}, {@code q(m)} above (0 when there are none). */
    public int required(int regions) {
        if (regions < 0) {
            throw new IllegalArgumentException("regions: " + regions + " (expected: 0 or more)");
        }
        if (regions == 0) {
            return 0;
        }
        return switch (policy) {
            case ANY -> 1;
            case MAJORITY -> regions / 2 + 1;
            case ALL -> regions;
            case AT_LEAST -> Math.min(atLeast, regions);
        };
    }

    /**
     * The overall status.
     *
     * @param votes one status per voting (known, not stale) region: DETECTING, HEALTHY or UNHEALTHY
     * @param silent known regions that are stale
     * @param previous the overall status before this evaluation
     */
    public HealthStatus combine(Collection<HealthStatus> votes, int silent, HealthStatus previous) {
        requireNonNull(votes, "votes");
        requireNonNull(previous, "previous");
        if (silent < 0) {
            throw new IllegalArgumentException("silent: " + silent + " (expected: 0 or more)");
        }
        if (votes.isEmpty()) {
            return previous;
        }
        int healthy = 0;
        int detecting = 0;
        for (HealthStatus vote : votes) {
            switch (vote) {
                case HEALTHY -> healthy++;
                case DETECTING -> detecting++;
                case UNHEALTHY -> { }
                case DISABLED -> throw new IllegalArgumentException(
                        "vote: DISABLED (expected: DETECTING, HEALTHY or UNHEALTHY)");
            }
        }
        if (healthy >= required(votes.size())) {
            return HealthStatus.HEALTHY;
        }
        if (healthy + detecting + silent < required(votes.size() + silent)) {
            return HealthStatus.UNHEALTHY;
        }
        return previous == HealthStatus.HEALTHY || previous == HealthStatus.UNHEALTHY ? previous : HealthStatus.DETECTING;
    }

    @Override
    public String toString() {
        return policy == QuorumPolicy.AT_LEAST ? "AT_LEAST(" + atLeast + ")" : policy.name();
    }
}
