package io.healthmesh.e2e;

import io.healthmesh.contract.Topics;
import io.healthmesh.e2e.HealthmeshStack.Shape;
import io.healthmesh.e2e.TargetsYaml.Target;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production shape, three KRaft brokers with three copies of every topic and {@code min.insync.replicas} 2, under
 * the faults a Kafka operator meets, one after the other on one stack while a target flips: its {@code health-state}
 * partition's leader killed, the aggregator's transaction coordinator killed, every broker restarted in turn, and the
 * partition's leader cut off the network. Each fault is in force while the target's backend stops and its UNHEALTHY
 * event must come within {@link #DETECTION_BOUND}; the broker returns while the backend starts again. After all of
 * them a {@code read_committed} consumer must have seen every change of every flip, none lost and none repeated, and
 * the targets whose backends stayed up must never have turned UNHEALTHY; {@code healthmesh replay}'s self-check
 * (exit 0: the aggregator's events equal a replay of the recorded results) is the oracle over the whole run. Each
 * fault's detection and recovery delays are logged next to a fault-free flip's, with how long the cluster took to
 * have every replica in sync again (docs/operations/three-brokers.md).
 */
class ThreeBrokerFaultsIT {

    private static final Logger LOG = LoggerFactory.getLogger(ThreeBrokerFaultsIT.class);
    private static final String FLIP = "cluster-flip-tcp";
    private static final List<String> STEADY = List.of("cluster-steady-http", "cluster-steady-tcp");
    /**
     * The steady targets' interval (timeout half of it): 2 s for a reply leaves the machine's own load out of the
     * no-false-alarm check (a socat HTTP backend on a loaded 2-core host missed 500 ms twice in a row before any fault).
     */
    private static final int STEADY_INTERVAL_MS = 4_000;
    /** The aggregator's Kafka Streams application id (its default): the prefix of its transactional ids. */
    private static final String APPLICATION_ID = "healthmesh-aggregator";
    /**
     * How late an UNHEALTHY event may come through any one fault: the cluster fences a lost broker after its 9 s
     * session, a request in flight to it is given up after 5 s and retried, and at worst the aggregator's transaction
     * outlives its 10 s timeout, is aborted, and its tasks are rebalanced and restored (about 50 s on a loaded
     * machine); the stalls this class was written for lasted more than 120 s (docs/operations/three-brokers.md,
     * "The bounds").
     */
    private static final Duration DETECTION_BOUND = Duration.ofSeconds(90);
    /** A backend back up is seen HEALTHY again within this, while the broker of the fault returns. */
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(60);
    /** A returned broker's replicas back in every ISR: a JVM start and catching up, measured up to 107 s under load. */
    private static final Duration IN_SYNC_PATIENCE = Duration.ofSeconds(180);
    /** Time for a broker's controlled shutdown (leaders moved away first) before SIGKILL. */
    private static final Duration BROKER_GRACE = Duration.ofSeconds(30);

    private static HealthmeshStack stack;
    private static TopicFeed<TargetHealth> states;
    private static KafkaCluster cluster;

    /** One fault: what to break before the target's backend stops, and what to repair once it is seen UNHEALTHY. */
    private record Fault(String name, Runnable inject, Runnable repair) {
    }

    /** What one flip through one fault cost. */
    private record Figures(String fault, long detectionMs, long recoveryMs, long inSyncMs) {
    }

    @BeforeAll
    static void startThreeBrokers() {
        ContainerTier.assumeAvailable();
        E2eImages images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
        stack = HealthmeshStack.start(images, new Shape(3, List.of("aggregator-1"), Map.of("prober-a1", "a"),
                List.of(Backend.FLIP_TCP, Backend.STEADY_HTTP, Backend.STEADY_TCP)));
        try {
            states = TopicFeed.start(stack.bootstrapServers(), Topics.DEFAULT.healthState(), TargetHealth.class,
                    Map.of("schema.registry.url", stack.registryUrl()));
            cluster = new KafkaCluster(stack.bootstrapServers(), stack::brokerName);
        } catch (RuntimeException | Error e) {
            LOG.error("feeds did not start; container logs:\n{}", stack.logTails(40));
            stopThreeBrokers();
            throw e;
        }
    }

    @AfterAll
    static void stopThreeBrokers() {
        if (cluster != null) {
            cluster.close();
        }
        if (states != null) {
            states.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void noStateChangeLostOrRepeatedAndNoFalseAlarmThroughBrokerFaults() {
        try {
            runEveryFault();
        } catch (AssertionError | RuntimeException e) {
            LOG.error("three-broker faults failed; container logs:\n{}", stack.logTails(60));
            throw e;
        }
    }

    private void runEveryFault() {
        // one group per target: the aggregator applies the changes of a group's members on different partitions in
        // the order its target tasks wrote them, which replay cannot know (it orders them by record timestamp,
        // docs/BEHAVIOUR.md "Replay checks the group events too"); two members defined by one apply can come in
        // either order, and the group's first event then carries the other member's timestamp. With one member per
        // group the order is the member's own and replay's group check is exact.
        stack.applyTargets(TargetsYaml.of(List.of(
                new Target(FLIP, "cluster-flip", Backend.FLIP_TCP, stack.address(Backend.FLIP_TCP), 1000, List.of("a")),
                new Target(STEADY.get(0), STEADY.get(0), Backend.STEADY_HTTP, stack.address(Backend.STEADY_HTTP),
                        STEADY_INTERVAL_MS, List.of("a")),
                new Target(STEADY.get(1), STEADY.get(1), Backend.STEADY_TCP, stack.address(Backend.STEADY_TCP),
                        STEADY_INTERVAL_MS, List.of("a")))));
        for (String id : List.of(FLIP, STEADY.get(0), STEADY.get(1))) {
            states.await(0, RECOVERY_BOUND, id + " HEALTHY", e -> is(e, id, HealthStatus.HEALTHY));
        }
        List<String> replication = cluster.replicationOfEveryTopic();
        LOG.info("topics of the three-broker stack:\n  {}", String.join("\n  ", replication));
        assertThat(replication).as("every topic, healthmesh's, Kafka Streams' and Kafka's own")
                .isNotEmpty().allMatch(line -> line.endsWith(": 3 copies, min.insync.replicas 2"));

        List<Figures> figures = new ArrayList<>();
        figures.add(flipThrough(new Fault("none (baseline)", () -> { }, () -> { })));
        String[] victim = new String[1];
        figures.add(flipThrough(new Fault("health-state leader killed", () -> {
            victim[0] = cluster.leaderOf(Topics.DEFAULT.healthState(), FLIP);
            stack.kill(victim[0]);
        }, () -> stack.start(victim[0]))));
        figures.add(flipThrough(new Fault("transaction coordinator killed", () -> {
            victim[0] = cluster.transactionCoordinatorOf(APPLICATION_ID);
            stack.kill(victim[0]);
        }, () -> stack.start(victim[0]))));
        for (String broker : stack.brokerNames()) {
            figures.add(flipThrough(new Fault(broker + " restarted", () -> stack.stop(broker, BROKER_GRACE),
                    () -> stack.start(broker))));
        }
        figures.add(flipThrough(new Fault("health-state leader cut off", () -> {
            victim[0] = cluster.leaderOf(Topics.DEFAULT.healthState(), FLIP);
            stack.disconnect(victim[0]);
        }, () -> stack.reconnect(victim[0]))));

        StringBuilder table = new StringBuilder("\nfault | UNHEALTHY seen after backend stop | HEALTHY seen after "
                + "backend start | every replica in sync after the repair\n");
        figures.forEach(f -> table.append(f.fault()).append(" | ").append(f.detectionMs()).append(" ms | ")
                .append(f.recoveryMs()).append(" ms | ").append(f.inSyncMs()).append(" ms\n"));
        LOG.info("three-broker faults, a TCP target at a 1 s interval, thresholds 2/2:{}", table);

        assertThat(StateEventChain.problems(states.events())).as("state events read_committed").isEmpty();
        for (String steady : STEADY) {
            assertThat(states.eventsOf(steady)).as("events of %s, whose backend never stopped", steady)
                    .map(TopicFeed.Event::value).filteredOn(Objects::nonNull)
                    .noneMatch(h -> h.getStatus() == HealthStatus.UNHEALTHY);
        }
        assertThat(states.eventsOf(FLIP).stream().map(TopicFeed.Event::value).filter(Objects::nonNull)
                .filter(h -> h.getStatus() == HealthStatus.UNHEALTHY).map(TargetHealth::getSinceMs).distinct().count())
                .as("UNHEALTHY periods of %s: one per flip", FLIP).isEqualTo(figures.size());

        OneShotContainer.Ended replay = stack.runCli(Duration.ofSeconds(180), "replay",
                "--bootstrap-server", stack.innerBootstrapServers(), "--schema-registry", stack.innerRegistryUrl(),
                "--to", Instant.now().toString());
        LOG.info("healthmesh replay over the whole run (exit {}):\n{}", replay.exitCode(), replay.output());
        // the verdict and its first differences on the description's first line: a CI summary shows only that line
        String verdict = replay.output().lines().dropWhile(line -> !line.startsWith("self-check:")).limit(4)
                .map(String::strip).collect(Collectors.joining(" | "));
        assertThat(replay.exitCode()).as("replay's self-check (exit 0: the events equal a replay of the results): %s%n%s",
                verdict.isEmpty() ? "(no self-check line)" : verdict, replay.output()).isZero();
    }

    /**
     * Injects the fault, stops the flipping target's backend and waits for UNHEALTHY; then repairs and starts the
     * backend together, and waits for HEALTHY and for every replica to be in sync again (the broker's return
     * overlaps the recovery, as the next fault needs every replica back).
     */
    private static Figures flipThrough(Fault fault) {
        LOG.info("fault: {}", fault.name());
        int before = states.size();
        fault.inject().run();
        stack.stop(Backend.FLIP_TCP.containerName);
        long stopped = System.currentTimeMillis();
        TopicFeed.Event<TargetHealth> down = states.await(before, DETECTION_BOUND,
                FLIP + " UNHEALTHY (" + fault.name() + ")", e -> is(e, FLIP, HealthStatus.UNHEALTHY));
        int afterDown = states.size();
        long repaired = System.currentTimeMillis();
        fault.repair().run();
        stack.start(Backend.FLIP_TCP.containerName);
        long started = System.currentTimeMillis();
        TopicFeed.Event<TargetHealth> up = states.await(afterDown, RECOVERY_BOUND,
                FLIP + " HEALTHY again (" + fault.name() + ")", e -> is(e, FLIP, HealthStatus.HEALTHY));
        cluster.awaitFullyReplicated(IN_SYNC_PATIENCE);
        Figures f = new Figures(fault.name(), down.seenAtMs() - stopped, up.seenAtMs() - started,
                System.currentTimeMillis() - repaired);
        LOG.info("{}", f);
        return f;
    }

    private static boolean is(TopicFeed.Event<TargetHealth> e, String id, HealthStatus status) {
        return id.equals(e.key()) && e.value() != null && e.value().getStatus() == status;
    }
}
