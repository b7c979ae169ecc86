package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.Thresholds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings a replay tries instead of those in force; each {@code null} keeps the target's own value. Only what
 * the aggregator judges with can change (thresholds, quorum, staleness): the probe parameters, and so the
 * generation, stay those of the recorded results.
 *
 * @param healthy successes in a row that make a target HEALTHY, or {@code null}
 * @param unhealthy failures in a row that make a target UNHEALTHY, or {@code null}
 * @param quorum the quorum rule, or {@code null}
 * @param staleAfter silence after which a region stops voting, or {@code null} for the aggregator's factor
 */
public record Alternatives(Integer healthy, Integer unhealthy, QuorumRule quorum, Duration staleAfter) {

    /** Nothing changed: the run "as configured". */
    public static final Alternatives NONE = new Alternatives(null, null, null, null);

    public Alternatives {
        if (healthy != null && healthy < 1) {
            throw new IllegalArgumentException("--healthy: " + healthy + " (expected: 1 or more)");
        }
        if (unhealthy != null && unhealthy < 1) {
            throw new IllegalArgumentException("--unhealthy: " + unhealthy + " (expected: 1 or more)");
        }
        if (staleAfter != null && (staleAfter.isNegative() || staleAfter.isZero())) {
            throw new IllegalArgumentException("--stale-after: " + staleAfter + " (expected: more than 0)");
        }
    }

    /** True when nothing is overridden. */
    public boolean isNone() {
        return healthy == null && unhealthy == null && quorum == null && staleAfter == null;
    }

    /** The essentials a target would have had under these alternatives (same id, group, timing and generation). */
    public TargetEssentials applyTo(TargetEssentials e) {
        if (isNone() || (healthy == null && unhealthy == null && quorum == null)) {
            return e;
        }
        Thresholds thresholds = new Thresholds(healthy == null ? e.thresholds().healthy() : healthy,
                unhealthy == null ? e.thresholds().unhealthy() : unhealthy);
        return new TargetEssentials(e.id(), e.group(), e.enabled(), thresholds, e.intervalMs(), e.timeoutMs(),
                e.regions(), quorum == null ? e.quorum() : quorum, e.generation());
    }

    /**
     * The staleness rule for a target: the aggregator's, or one whose window ({@code factor x interval + timeout})
     * comes as close to {@code staleAfter} as the rule's range (factor 1 to 100) allows.
     */
    public StalenessRule staleness(TargetEssentials e, StalenessRule configured) {
        if (staleAfter == null) {
            return configured;
        }
        double factor = (double) (staleAfter.toMillis() - e.timeoutMs()) / e.intervalMs();
        return new StalenessRule(Math.max(1.0, Math.min(100.0, factor)));
    }

    /** The command-line form of what is overridden, e.g. {@code --healthy 3 --unhealthy 3}. */
    public String describe() {
        if (isNone()) {
            return "as configured";
        }
        List<String> parts = new ArrayList<>();
        if (healthy != null) {
            parts.add("--healthy " + healthy);
        }
        if (unhealthy != null) {
            parts.add("--unhealthy " + unhealthy);
        }
        if (quorum != null) {
            parts.add("--quorum " + quorum);
        }
        if (staleAfter != null) {
            parts.add("--stale-after " + staleAfter.toMillis() + "ms");
        }
        return String.join(" ", parts);
    }
}
