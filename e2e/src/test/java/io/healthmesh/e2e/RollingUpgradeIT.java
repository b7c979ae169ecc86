package io.healthmesh.e2e;

import io.healthmesh.contract.Topics;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.e2e.WebhookReceiver.Delivery;
import io.healthmesh.ops.BuildInfo;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every role instance rolled one at a time while targets flip: first a rolling upgrade from the previous release's
 * image to this build's, then a rolling restart of every instance on this build. One stack for both. Afterwards a
 * {@code read_committed} consumer of the state topic has seen no UNHEALTHY that neither a backend outage nor the
 * target's own timed-out probes explain, no lost or repeated transition, an UNHEALTHY for every target of every
 * backend outage, and the webhook has received a firing and a resolved alert for every UNHEALTHY period (none lost;
 * repeats are allowed, at least once).
 * <p>
 * A backend that stayed up can still time out: the HTTP backend forks a shell per request, and each role's JVM start
 * takes the machine's cores for seconds. Such an UNHEALTHY is a true report of what was probed, so it is accepted
 * when the target's last {@value #UNHEALTHY_THRESHOLD} results before it are {@code TIMEOUT}s (what the aggregator
 * decided on); any other failure of a backend that was up (a refused connection, a wrong status, a TLS or an internal
 * error) or an UNHEALTHY without failed results is a false state event.
 */
class RollingUpgradeIT {

    private static final Logger LOG = LoggerFactory.getLogger(RollingUpgradeIT.class);
    private static final int STEADY_PER_BACKEND = 15;
    /**
     * Fewer targets, probed less often, on the HTTP backend: it forks a shell per request, which a busy machine
     * delays beyond a 500 ms timeout (a TCP backend only forks socat).
     */
    private static final int STEADY_HTTP_TARGETS = 5;
    private static final int STEADY_HTTP_INTERVAL_MS = 3000;
    private static final int FLIPPING_PER_BACKEND = 4;
    private static final int INTERVAL_MS = 1000;
    /** The targets' unhealthy threshold ({@link TargetsYaml}): this many failed results decide UNHEALTHY. */
    private static final int UNHEALTHY_THRESHOLD = 2;
    /** A backend stays down this long: thresholds of 2 at 1 s decide within a few seconds even across a handover. */
    private static final Duration OUTAGE = Duration.ofSeconds(12);
    /** How far an UNHEALTHY may lag the end of its backend's outage (detection, a handover, a restore). */
    private static final Duration DECISION_SLACK = Duration.ofSeconds(30);
    private static final Duration SETTLE = Duration.ofSeconds(180);
    /**
     * Roles the previous release's image cannot run; they join the stack at their turn of the upgrade, on the current
     * image. None for 0.2.0 (0.1.0's image could not run xds).
     */
    private static final Set<String> BROKEN_IN_PREVIOUS = Set.of();
    /** Long tier only (it builds and runs the previous release's image): on with this system property. */
    static final String OPT_IN = "healthmesh.e2e.rolling";

    @Test
    void aRollingUpgradeThenARollingRestartLoseNoStateChangeAndNoAlertAndInventNoOutage() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean(OPT_IN), "rolling upgrade runs with -D" + OPT_IN + "=true");
        ContainerTier.assumeAvailable();
        E2eImages images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
        String previous = PreviousImage.require(System.getenv());
        String current = images.healthmesh();
        long started = System.nanoTime();
        try (StaticNetwork network = StaticNetwork.create();
             WebhookReceiver receiver = WebhookReceiver.start(network.gateway());
             RollingStack stack = RollingStack.start(network, images, previous, receiver.url(),
                     BROKEN_IN_PREVIOUS)) {
            LOG.info("stack up on {} in {} s", previous, seconds(started));
            try {
                run(stack, receiver, previous, current, started);
            } catch (RuntimeException | AssertionError e) {
                LOG.error("rolling test failed after {} s; steps:\n{}\ncontainer logs:\n{}", seconds(started),
                        steps(stack), stack.logTails(40));
                throw e;
            }
            LOG.info("steps:\n{}", steps(stack));
        }
        LOG.info("wall time {} s", seconds(started));
    }

    private static void run(RollingStack stack, WebhookReceiver receiver, String previous, String current, long started)
            throws InterruptedException {
        Map<String, Backend> backendOf = targets(stack);
        // definitions written by the previous release's CLI: the upgraded roles must read them
        stack.applyTargets(previous, TargetsYaml.of(backendOf.entrySet().stream()
                .map(e -> new Target(e.getKey(), "roll-" + e.getKey(), e.getValue(), stack.address(e.getValue()),
                        e.getValue().kind == Backend.Kind.HTTP ? STEADY_HTTP_INTERVAL_MS : INTERVAL_MS, List.of("a")))
                .toList()));
        LOG.info("{} targets applied after {} s", backendOf.size(), seconds(started));
        Map<String, String> serde = Map.of("schema.registry.url", stack.registryUrl());
        try (TopicFeed<TargetHealth> states = TopicFeed.start(stack.bootstrapServers(), Topics.DEFAULT.healthState(),
                TargetHealth.class, serde);
             TopicFeed<ProbeResult> results = TopicFeed.start(stack.bootstrapServers(),
                     Topics.DEFAULT.probeResults(), ProbeResult.class, serde)) {
            awaitAllHealthy(states, backendOf.keySet(), SETTLE);
            LOG.info("{} targets HEALTHY after {} s", backendOf.size(), seconds(started));

            Flipper flipper = Flipper.start(stack, RollingStack.FLIPPING, OUTAGE);
            List<Flipper.Outage> outages;
            try {
                for (String name : stack.rollingOrder()) {
                    stack.replace(name, current);
                    assertThat(stack.logsOf(name)).as("%s's start line after the upgrade", name)
                            .contains("role starting: healthmesh " + BuildInfo.current().version() + " (commit ");
                }
                LOG.info("rolling upgrade {} -> {} done after {} s", previous, current, seconds(started));
                for (String name : stack.rollingOrder()) {
                    stack.restart(name);
                }
                LOG.info("rolling restart done after {} s", seconds(started));
            } finally {
                outages = flipper.stop();
            }
            awaitAllHealthy(states, backendOf.keySet(), SETTLE);
            List<TopicFeed.Event<TargetHealth>> events = states.events();
            Map<String, List<TargetHealth>> byTarget = byTarget(events, backendOf.keySet());
            LOG.info("{} outages, {} state events", outages.size(), events.size());

            Map<String, List<ProbeResult>> resultsOf = resultsByTarget(results.events());
            // every check runs, so that one run reports every kind of failure
            List<String> failed = new ArrayList<>();
            check(failed, () -> assertNoFalseUnhealthy(byTarget, backendOf, outages, resultsOf));
            check(failed, () -> assertNothingLostNothingRepeated(events));
            check(failed, () -> assertEveryOutageSeen(byTarget, backendOf, outages));
            check(failed, () -> awaitEveryAlert(receiver, byTarget));
            assertThat(failed).as("checks that failed").isEmpty();
            LOG.info("rolling upgrade and restart checked in {} s", seconds(started));
        }
    }

    private static void check(List<String> failed, Runnable check) {
        try {
            check.run();
        } catch (AssertionError e) {
            LOG.error("check failed: {}", e.getMessage());
            failed.add(e.getMessage());
        }
    }

    /** Target id -> backend: many steady targets, a few on each flipping backend. */
    private static Map<String, Backend> targets(RollingStack stack) {
        Map<String, Backend> of = new LinkedHashMap<>();
        for (Backend b : RollingStack.STEADY) {
            for (int i = 0; i < (b.kind == Backend.Kind.HTTP ? STEADY_HTTP_TARGETS : STEADY_PER_BACKEND); i++) {
                of.put("roll-steady-" + b.containerName + "-" + i, b);
            }
        }
        for (Backend b : RollingStack.FLIPPING) {
            for (int i = 0; i < FLIPPING_PER_BACKEND; i++) {
                of.put("roll-flip-" + b.containerName + "-" + i, b);
            }
        }
        return of;
    }

    private static void awaitAllHealthy(TopicFeed<TargetHealth> states, Set<String> ids, Duration timeout) {
        Await.value(timeout, () -> notYetHealthy(states, ids).isEmpty() ? Optional.of(true) : Optional.empty(),
                () -> "every target HEALTHY and fresh; not yet: " + notYetHealthy(states, ids));
    }

    /** The targets whose last state is not HEALTHY and fresh, with that state. */
    private static List<String> notYetHealthy(TopicFeed<TargetHealth> states, Set<String> ids) {
        Map<String, TargetHealth> last = new HashMap<>();
        states.events().forEach(e -> last.put(e.key(), e.value()));
        return ids.stream().filter(id -> last.get(id) == null || last.get(id).getStatus() != HealthStatus.HEALTHY
                        || last.get(id).getStale())
                .map(id -> id + "=" + (last.get(id) == null ? "none" : last.get(id).getStatus()
                        + (last.get(id).getStale() ? "(stale)" : "")))
                .toList();
    }

    private static Map<String, List<TargetHealth>> byTarget(List<TopicFeed.Event<TargetHealth>> events, Set<String> ids) {
        Map<String, List<TargetHealth>> of = new HashMap<>();
        ids.forEach(id -> of.put(id, new ArrayList<>()));
        for (TopicFeed.Event<TargetHealth> e : events) {
            if (e.value() != null && of.containsKey(e.key())) {
                of.get(e.key()).add(e.value());
            }
        }
        return of;
    }

    /** The distinct starts of a target's UNHEALTHY periods (a period's later events keep its start). */
    private static Set<Long> unhealthyPeriods(List<TargetHealth> events) {
        return events.stream().filter(h -> h.getStatus() == HealthStatus.UNHEALTHY).map(TargetHealth::getSinceMs)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Every UNHEALTHY period is explained by an outage of the target's backend, or else by the target's own
     * timed-out probes: its last {@value #UNHEALTHY_THRESHOLD} conclusive results that started before the period did are
     * {@code TIMEOUT}s (a period is dated by the completion of the result that decided it).
     */
    private static void assertNoFalseUnhealthy(Map<String, List<TargetHealth>> byTarget, Map<String, Backend> backendOf,
                                               List<Flipper.Outage> outages, Map<String, List<ProbeResult>> results) {
        List<String> false_ = new ArrayList<>();
        List<String> timedOut = new ArrayList<>();
        int byOutage = 0;
        for (Map.Entry<String, List<TargetHealth>> e : byTarget.entrySet()) {
            String id = e.getKey();
            for (long since : unhealthyPeriods(e.getValue())) {
                boolean explained = outages.stream().anyMatch(o -> o.backend() == backendOf.get(id)
                        && since >= o.downAtMs() && since <= o.upAtMs() + DECISION_SLACK.toMillis());
                List<ProbeOutcome> before = lastOutcomesBefore(results.getOrDefault(id, List.of()), since);
                String what = id + " UNHEALTHY since " + Instant.ofEpochMilli(since) + " after " + before;
                if (explained) {
                    byOutage++;
                } else if (before.size() == UNHEALTHY_THRESHOLD
                        && before.stream().allMatch(o -> o == ProbeOutcome.TIMEOUT)) {
                    timedOut.add(what);
                } else {
                    false_.add(what);
                }
            }
        }
        LOG.info("UNHEALTHY periods: {} explained by a backend outage, {} by the target's own timed-out probes{}",
                byOutage, timedOut.size(), timedOut.isEmpty() ? "" : ":\n  " + String.join("\n  ", timedOut));
        assertThat(false_).as("UNHEALTHY periods neither a backend outage nor timed-out probes explain (outages: %s)",
                outages).isEmpty();
    }

    /**
     * The outcomes of the last {@value #UNHEALTHY_THRESHOLD} conclusive results that started at or before
     * {@code atMs}: an INCONCLUSIVE result (the prober's own trouble) is neither a success nor a failure, so the
     * aggregator's thresholds skip it.
     */
    private static List<ProbeOutcome> lastOutcomesBefore(List<ProbeResult> results, long atMs) {
        List<ProbeOutcome> before = results.stream().filter(r -> r.getStartedAtMs() <= atMs)
                .filter(r -> r.getOutcome() != ProbeOutcome.INCONCLUSIVE)
                .sorted(Comparator.comparingLong(ProbeResult::getStartedAtMs))
                .map(ProbeResult::getOutcome).toList();
        return before.subList(Math.max(0, before.size() - UNHEALTHY_THRESHOLD), before.size());
    }

    private static Map<String, List<ProbeResult>> resultsByTarget(List<TopicFeed.Event<ProbeResult>> events) {
        Map<String, List<ProbeResult>> of = new HashMap<>();
        for (TopicFeed.Event<ProbeResult> e : events) {
            if (e.value() != null) {
                of.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.value());
            }
        }
        return of;
    }

    /** Every outage of a backend made each of its targets UNHEALTHY at least once. */
    private static void assertEveryOutageSeen(Map<String, List<TargetHealth>> byTarget, Map<String, Backend> backendOf,
                                              List<Flipper.Outage> outages) {
        List<String> missed = new ArrayList<>();
        for (Flipper.Outage o : outages) {
            backendOf.entrySet().stream().filter(e -> e.getValue() == o.backend()).forEach(e -> {
                boolean seen = unhealthyPeriods(byTarget.get(e.getKey())).stream()
                        .anyMatch(since -> since >= o.downAtMs() && since <= o.upAtMs() + DECISION_SLACK.toMillis());
                if (!seen) {
                    missed.add(e.getKey() + " during " + o);
                }
            });
        }
        assertThat(missed).as("outages without an UNHEALTHY").isEmpty();
    }

    /** Each consecutive pair of a target's events chains (previous status) and differs (no repeat). */
    private static void assertNothingLostNothingRepeated(List<TopicFeed.Event<TargetHealth>> events) {
        assertThat(StateEventChain.problems(events)).as("state events read_committed").isEmpty();
    }

    /**
     * For every target, one firing alert per UNHEALTHY period and one resolved per period that ended; none for
     * steady targets. Deliveries are counted by idempotency key, so at-least-once repeats do not count twice.
     */
    private static void awaitEveryAlert(WebhookReceiver receiver, Map<String, List<TargetHealth>> byTarget) {
        Map<String, String> expected = new LinkedHashMap<>();
        byTarget.forEach((id, events) -> {
            int periods = unhealthyPeriods(events).size();
            boolean open = !events.isEmpty() && events.get(events.size() - 1).getStatus() == HealthStatus.UNHEALTHY;
            expected.put(id, "firing=" + periods + " resolved=" + (open ? periods - 1 : periods));
        });
        Await.value(SETTLE, () -> {
            Map<String, String> received = received(receiver.deliveries(), byTarget.keySet());
            return received.equals(expected) ? Optional.of(true) : Optional.empty();
        }, () -> "alerts per target: expected " + differences(expected, received(receiver.deliveries(),
                byTarget.keySet())));
    }

    private static Map<String, String> received(List<Delivery> deliveries, Set<String> ids) {
        Map<String, Set<String>> firing = new HashMap<>();
        Map<String, Set<String>> resolved = new HashMap<>();
        for (Delivery d : deliveries) {
            if (!"target".equals(d.kind())) {
                continue;
            }
            if (d.type().equals("firing")) {
                firing.computeIfAbsent(d.alertId(), k -> new TreeSet<>()).add(d.id());
            } else if (d.type().equals("resolved")) {
                resolved.computeIfAbsent(d.alertId(), k -> new TreeSet<>()).add(d.id());
            }
        }
        Map<String, String> of = new LinkedHashMap<>();
        ids.forEach(id -> of.put(id, "firing=" + firing.getOrDefault(id, Set.of()).size()
                + " resolved=" + resolved.getOrDefault(id, Set.of()).size()));
        return of;
    }

    private static String differences(Map<String, String> expected, Map<String, String> received) {
        return expected.entrySet().stream().filter(e -> !e.getValue().equals(received.get(e.getKey())))
                .map(e -> e.getKey() + " " + e.getValue() + " but received " + received.get(e.getKey()))
                .collect(Collectors.joining("; "));
    }

    private static String steps(RollingStack stack) {
        return stack.steps().stream().map(RollingStack.Step::toString).collect(Collectors.joining("\n"));
    }

    private static long seconds(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toSeconds();
    }
}
