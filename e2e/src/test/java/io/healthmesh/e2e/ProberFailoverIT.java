package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import io.healthmesh.e2e.StackExtension.Stack;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.schema.ProbeResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A killed prober's targets are probed again by the other prober of its region once Kafka notices the death:
 * within the session timeout plus two intervals (the rebalance that the notice starts included).
 */
@ExtendWith(StackExtension.class)
class ProberFailoverIT {

    private static final Logger LOG = LoggerFactory.getLogger(ProberFailoverIT.class);
    private static final int INTERVAL_MS = 4000;
    private static final int TARGETS = 12;
    private static final Duration OBSERVE = Duration.ofSeconds(10);

    @Test
    void everyTargetOfAKilledProberHasResultsFromTheOtherProberOfItsRegion(Stack stack) {
        HealthmeshStack containers = stack.containers();
        List<Target> targets = new ArrayList<>();
        Backend[] steady = {Backend.STEADY_HTTP, Backend.STEADY_TCP, Backend.STEADY_UDP};
        for (int i = 0; i < TARGETS; i++) {
            Backend b = steady[i % steady.length];
            targets.add(new Target("e2e-steady-" + i, "e2e-steady", b, containers.address(b), INTERVAL_MS, List.of()));
        }
        containers.applyTargets(TargetsYaml.of(targets));
        Set<String> ids = targets.stream().map(Target::id).collect(Collectors.toCollection(TreeSet::new));

        // who probes what in region a: the prober of each target's latest region-a result
        Map<String, String> owner = Await.value(Duration.ofSeconds(120), () -> Optional.of(owners(stack, ids)).filter(o -> o.keySet().containsAll(ids)), () -> "region-a results for every one of " + ids + ", seen: " + owners(stack, ids).keySet());
        Map<String, List<String>> byProber = owner.entrySet().stream().collect(Collectors.groupingBy(
                Map.Entry::getValue, Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        String victim = byProber.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size()))
                .orElseThrow().getKey();
        List<String> orphans = byProber.get(victim);
        LOG.info("region a: {}; killing {}", byProber, victim);

        long killedAt = System.currentTimeMillis();
        containers.kill(victim);
        try {
            Duration bound = HealthmeshStack.SESSION_TIMEOUT.plusMillis(2L * INTERVAL_MS);
            // the bound is on when the probes started; observing them takes a publish and a fetch more
            Map<String, Long> resumedAfterMs = Await.value(bound.plus(OBSERVE), () -> Optional.of(resumed(stack, orphans, victim, killedAt))
                            .filter(r -> r.keySet().containsAll(orphans)), () -> "results from another region-a prober for every target of " + victim + " " + orphans
                            + ", resumed so far: " + resumed(stack, orphans, victim, killedAt).keySet());
            LOG.info("after killing {} at {}: first results from the others after {} ms (bound {} ms)",
                    victim, killedAt, resumedAfterMs, bound.toMillis());
            assertThat(resumedAfterMs.values()).allSatisfy(ms -> assertThat(ms).isLessThanOrEqualTo(bound.toMillis()));
        } finally {
            containers.start(victim);
            containers.awaitHealthy(victim, Duration.ofSeconds(120));
        }
    }

    /** Per target: the prober of its latest region-a result. */
    private static Map<String, String> owners(Stack stack, Set<String> ids) {
        Map<String, String> owner = new HashMap<>();
        stack.results().events().forEach(e -> {
            ProbeResult r = e.value();
            if (r != null && ids.contains(e.key()) && "a".equals(r.getRegion())) {
                owner.put(e.key(), r.getProberId());
            }
        });
        return owner;
    }

    /** Per orphaned target: ms from the kill to the start of its first region-a probe by another prober. */
    private static Map<String, Long> resumed(Stack stack, List<String> orphans, String victim, long killedAt) {
        Map<String, Long> first = new HashMap<>();
        stack.results().events().forEach(e -> {
            ProbeResult r = e.value();
            if (r != null && orphans.contains(e.key()) && "a".equals(r.getRegion())
                    && !victim.equals(r.getProberId()) && r.getStartedAtMs() > killedAt) {
                first.merge(e.key(), r.getStartedAtMs() - killedAt, Math::min);
            }
        });
        return first;
    }
}
