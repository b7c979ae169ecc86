package io.healthmesh.e2e;

import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;

import io.healthmesh.testkit.Await;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A stack whose role instances can be restarted or replaced one at a time: one KRaft broker, the schema registry,
 * two aggregators, two probers of region {@code a}, a notifier posting to a webhook, the xds role and four
 * backends. Every role starts on the previous release's image; {@link #replace} gives an instance another image with
 * the same name, address and configuration (a rolling upgrade), {@link #restart} stops it gracefully and starts it
 * again. Each instance counts as back when its {@code /readyz} answers 200. Each container gets the settings its own
 * version knows: a setting this build added is given only to instances that do not run the previous release's image
 * (a release refuses settings it does not know).
 */
final class RollingStack implements AutoCloseable {

    /**
     * One role instance: container name, host number on the network, role command, ops port, settings every version
     * knows, and the settings this build needs that the previous release does not know (it would refuse them).
     */
    record Instance(String name, int host, String role, int port, Map<String, String> env,
                    Map<String, String> addedSincePrevious) {

        Instance(String name, int host, String role, int port, Map<String, String> env) {
            this(name, host, role, port, env, Map.of());
        }
    }

    /**
     * One step of a roll: an instance stopped (SIGTERM, SIGKILL after {@value #STOP_SECONDS} s) and started again,
     * on {@code toImage}; how long the stop took and how long the new start took until {@code /readyz} answered 200.
     */
    record Step(String name, String fromImage, String toImage, long stopMs, long readyMs) {

        /** How long the instance was away: its stop plus its start until ready. */
        long gapMs() {
            return stopMs + readyMs;
        }

        @Override
        public String toString() {
            return String.format("%-13s %-22s -> %-22s stop %5.1f s, ready %5.1f s, away %5.1f s", name, fromImage,
                    toImage, stopMs / 1000.0, readyMs / 1000.0, gapMs() / 1000.0);
        }
    }

    /** An instance that logged a line after which it never becomes ready (a known issue of its version). */
    static final class GaveUp extends IllegalStateException {
        GaveUp(String message) {
            super(message);
        }
    }

    /**
     * Lines after which an instance stays unready for good: 0.1.0's notifier stops reading the targets topic on its
     * first error (its {@code /readyz} then stays 503; fixed in 0.2.0, which retries).
     */
    static final List<String> GIVE_UP_LINES = List.of("targets reader stopped");

    /** The backends, on this stack's own network: two that stay up, two that the test flips. */
    static final List<Backend> STEADY = List.of(Backend.STEADY_TCP, Backend.STEADY_HTTP);
    static final List<Backend> FLIPPING = List.of(Backend.FLIP_TCP, Backend.SOLO_TCP);

    private static final Logger LOG = LoggerFactory.getLogger(RollingStack.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    /** A role's graceful stop: SIGTERM, then SIGKILL after this long. */
    private static final int STOP_SECONDS = 20;
    /** Starts of an instance of the previous release that gave up at start (a known issue), first one included. */
    private static final int START_ATTEMPTS = 3;
    /** How often a starting instance's state and output are looked at (its readiness is asked more often). */
    private static final Duration LOG_CHECK_PERIOD = Duration.ofSeconds(2);
    private static final int KAFKA_HOST_LISTENER = 19092;
    private static final int REGISTRY_PORT = 8081;
    private static final String ROUTES_FILE = "/tmp/healthmesh-routes.yaml";
    private static final String WORKER_PASSWORD = UUID.randomUUID().toString();
    private static final String ADMIN_PASSWORD = UUID.randomUUID().toString();
    private static final String JAVA_OPTS = "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    private final StaticNetwork network;
    private final E2eImages images;
    private final String previousImage;
    private final List<Step> steps = new ArrayList<>();
    private final int kafkaHostPort;
    private final String webhookUrl;
    private final Map<String, GenericContainer<?>> containers = new LinkedHashMap<>();
    private final Map<String, Instance> instances = new LinkedHashMap<>();
    private final Map<String, String> imageOf = new LinkedHashMap<>();
    private int oneShot = 200;

    private RollingStack(StaticNetwork network, E2eImages images, String previousImage, int kafkaHostPort,
                         String webhookUrl) {
        this.network = network;
        this.images = images;
        this.previousImage = previousImage;
        this.kafkaHostPort = kafkaHostPort;
        this.webhookUrl = webhookUrl;
    }

    /**
     * Starts everything on {@code previousImage} but the instances named in {@code absent}, which {@link #replace}
     * starts later; the notifier posts to {@code webhookUrl}. The network must be the one the receiver listens on
     * ({@link StaticNetwork#gateway()}).
     */
    static RollingStack start(StaticNetwork network, E2eImages images, String previousImage, String webhookUrl,
                              Set<String> absent) {
        RollingStack stack = new RollingStack(network, images, previousImage, LocalPorts.free(), webhookUrl);
        try {
            stack.startAll(previousImage, absent);
        } catch (RuntimeException | Error e) {
            LOG.error("stack did not start; container logs:\n{}", stack.logTails(60));
            stack.close();
            throw e;
        }
        return stack;
    }

    /** The role instances in the order a rolling upgrade takes them: readers of a topic before its writers. */
    List<String> rollingOrder() {
        return List.of("registry", "notifier", "xds", "aggregator-1", "aggregator-2", "prober-a1", "prober-a2");
    }

    private void startAll(String roleImage, Set<String> absent) {
        List<GenericContainer<?>> first = new ArrayList<>();
        for (Backend b : List.of(Backend.STEADY_TCP, Backend.STEADY_HTTP, Backend.FLIP_TCP, Backend.SOLO_TCP)) {
            first.add(add(b.containerName, b.host, new GenericContainer<>(images.targets())
                    .withCommand(b.kind.command, Integer.toString(b.kind.port))));
        }
        first.add(add("kafka", 10, kafka()));
        Startables.deepStart(first).join();
        define(new Instance("registry", 11, "registry", REGISTRY_PORT, Map.of(
                "HEALTHMESH_REGISTRY_USERS", "e2e-admin:admin:" + ADMIN_PASSWORD + ",e2e-worker:read:" + WORKER_PASSWORD,
                "HEALTHMESH_REGISTRY_ANONYMOUS_READ", "true")));
        startInstance("registry", roleImage);
        define(aggregator("aggregator-1", 21));
        define(aggregator("aggregator-2", 22));
        define(prober("prober-a1", 31));
        define(prober("prober-a2", 32));
        define(new Instance("notifier", 41, "notifier", 8083, Map.of("HEALTHMESH_ROUTES_FILE", ROUTES_FILE)));
        define(new Instance("xds", 51, "xds", 8087, Map.of("HEALTHMESH_XDS_PORT", "18000")));
        // The aggregators create the topics. The notifier comes next, alone: 0.1.0's gives up reading the targets
        // topic for good on its first error (a topic not there yet, a metadata timeout while JVMs start around it).
        for (List<String> wave : List.of(List.of("aggregator-1", "aggregator-2"), List.of("notifier"),
                List.of("prober-a1", "prober-a2", "xds"))) {
            List<String> names = wave.stream().filter(name -> !absent.contains(name)).toList();
            Startables.deepStart(names.stream().map(name -> container(name, roleImage)).toList()).join();
            names.forEach(name -> startAgainIfGaveUp(name, START_ATTEMPTS));
        }
    }

    /**
     * Waits for an instance to be ready and starts it once more if it gave up at start (0.1.0's notifier's known
     * issue, which an operator works around the same way: start it again); at most {@code attempts} starts in all.
     */
    private void startAgainIfGaveUp(String name, int attempts) {
        for (int attempt = 1; ; attempt++) {
            try {
                awaitReady(name);
                return;
            } catch (GaveUp e) {
                if (attempt >= attempts) {
                    throw e;
                }
                LOG.warn("{} gave up at start ({}); starting it again, attempt {} of {}", name, e.getMessage(),
                        attempt + 1, attempts);
                replace(name, imageOf(name));
            }
        }
    }

    private static Instance aggregator(String name, int host) {
        // one broker: one copy of each topic, knowingly (both releases know the setting that allows it)
        return new Instance(name, host, "aggregator", 8082, Map.of(
                "HEALTHMESH_APPLICATION_SERVER", name + ":8082",
                "HEALTHMESH_STATE_DIR", "/var/lib/healthmesh",
                "HEALTHMESH_REPLICATION_FACTOR", "1",
                "HEALTHMESH_REPLICATION_SINGLE_COPY_ALLOWED", "true"));
    }

    private static Instance prober(String name, int host) {
        return new Instance(name, host, "prober", 8080, Map.of(
                "HEALTHMESH_REGION", "a",
                "HEALTHMESH_PROBER_ID", name,
                "HEALTHMESH_EVENT_LOOP_THREADS", "1"));
    }

    private void define(Instance instance) {
        instances.put(instance.name(), instance);
    }

    private GenericContainer<?> container(String name, String image) {
        Instance i = instances.get(name);
        Map<String, String> env = new LinkedHashMap<>(i.env());
        if (!image.equals(previousImage)) {
            env.putAll(i.addedSincePrevious());
        }
        env.put("HEALTHMESH_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("HEALTHMESH_HTTP_PORT", Integer.toString(i.port()));
        env.put("HEALTHCHECK_PORT", Integer.toString(i.port()));
        env.put("JAVA_OPTS", JAVA_OPTS);
        if (!i.role().equals("registry")) {
            env.put("HEALTHMESH_SCHEMA_REGISTRY_URL", "http://registry:" + REGISTRY_PORT);
            env.put("HEALTHMESH_BASIC_AUTH_CREDENTIALS_SOURCE", "USER_INFO");
            env.put("HEALTHMESH_BASIC_AUTH_USER_INFO", "e2e-worker:" + WORKER_PASSWORD);
            env.put("HEALTHMESH_SCHEMA_REGISTRY_BASIC_AUTH_ALLOW_INSECURE_HTTP", "true");
        }
        if (i.role().equals("aggregator") || i.role().equals("prober") || i.role().equals("notifier")) {
            env.put("HEALTHMESH_KAFKA_SESSION_TIMEOUT_MS", "6000");
            env.put("HEALTHMESH_KAFKA_HEARTBEAT_INTERVAL_MS", "1000");
        }
        GenericContainer<?> c = new GenericContainer<>(image)
                .withCommand(i.role())
                .withEnv(env)
                .withExposedPorts(i.port())
                // readiness is awaited by awaitReady, which also stops at a line after which it never comes
                .waitingFor(Wait.forListeningPort().withStartupTimeout(START_TIMEOUT));
        if (i.role().equals("notifier")) {
            c.withCopyToContainer(Transferable.of(routes()), ROUTES_FILE);
        }
        imageOf.put(name, image);
        return add(name, i.host(), c);
    }

    private void startInstance(String name, String image) {
        container(name, image).start();
        awaitReady(name);
    }

    /**
     * Waits (bounded) for an instance's {@code /readyz} to answer 200 on its own address (the mapped port moves with
     * a restart); fails at once when it stopped running or logged one of the {@link #GIVE_UP_LINES}.
     */
    private void awaitReady(String name) {
        Instance i = instances.get(name);
        String readyz = "http://" + network.address(i.host()) + ":" + i.port() + "/readyz";
        GenericContainer<?> c = containers.get(name);
        long[] nextLogCheck = {System.nanoTime()};
        Await.value(START_TIMEOUT, () -> {
            if (status(readyz) == 200) {
                return Optional.of(true);
            }
            if (System.nanoTime() < nextLogCheck[0]) {
                return Optional.empty();
            }
            nextLogCheck[0] = System.nanoTime() + LOG_CHECK_PERIOD.toNanos();
            if (!c.isRunning()) {
                throw new IllegalStateException(name + " stopped before it was ready");
            }
            String logs = c.getLogs();
            GIVE_UP_LINES.stream().filter(logs::contains).findFirst().ifPresent(line -> {
                throw new GaveUp(name + " logged \"" + line + "\"");
            });
            return Optional.empty();
        }, () -> name + " ready (" + readyz + ")");
    }

    /** Every UNHEALTHY target, fired and resolved, to the receiver; group fail-open alerts are not asked for. */
    private String routes() {
        return "routes:\n"
                + "  - name: e2e-webhook\n"
                + "    type: webhook\n"
                + "    url: " + webhookUrl + "\n"
                + "    resolved: true\n"
                + "    filter:\n"
                + "      failOpen: false\n";
    }

    private GenericContainer<?> add(String name, int host, GenericContainer<?> container) {
        String address = network.address(host);
        container.withNetwork(network).withNetworkAliases(name)
                .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(address)
                        .withName(network.name() + "-" + name));
        containers.put(name, container);
        return container;
    }

    private GenericContainer<?> kafka() {
        ExposedPort hostListener = ExposedPort.tcp(KAFKA_HOST_LISTENER);
        return new GenericContainer<>(images.kafka())
                .withEnv(Map.ofEntries(
                        Map.entry("CLUSTER_ID", "aGVhbHRobWVzaC1yb2xs"),
                        Map.entry("KAFKA_NODE_ID", "1"),
                        Map.entry("KAFKA_PROCESS_ROLES", "broker,controller"),
                        Map.entry("KAFKA_LISTENERS", "PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:" + KAFKA_HOST_LISTENER),
                        Map.entry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://kafka:9092,HOST://127.0.0.1:" + kafkaHostPort),
                        Map.entry("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
                                "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,HOST:PLAINTEXT"),
                        Map.entry("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER"),
                        Map.entry("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT"),
                        Map.entry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka:9093"),
                        Map.entry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1"),
                        Map.entry("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "6"),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1"),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1"),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS", "6"),
                        Map.entry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1"),
                        Map.entry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1"),
                        Map.entry("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0"),
                        Map.entry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false"),
                        Map.entry("KAFKA_HEAP_OPTS", "-Xmx512m -Xms256m")))
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withExposedPorts(hostListener);
                    cmd.getHostConfig().withPortBindings(
                            new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", kafkaHostPort), hostListener));
                })
                .waitingFor(Wait.forLogMessage(".*Kafka Server started.*", 1).withStartupTimeout(START_TIMEOUT));
    }

    /**
     * Replaces one instance by a container of {@code image}: the old one (if it was started) is stopped gracefully
     * and removed, the new one gets the same name, address and settings; returns once its {@code /readyz} answers
     * 200.
     */
    Step replace(String name, String image) {
        String from = imageOf.getOrDefault(name, "not started");
        LOG.info("replacing {} ({} -> {})", name, from, image);
        long t0 = System.nanoTime();
        if (containers.containsKey(name)) {
            stopGracefully(name);
            containers.remove(name).stop();
        }
        long t1 = System.nanoTime();
        startInstance(name, image);
        return record(new Step(name, from, image, millis(t1 - t0), millis(System.nanoTime() - t1)));
    }

    /** Stops one instance gracefully and starts the same container again; returns once it is ready. */
    Step restart(String name) {
        LOG.info("restarting {}", name);
        long t0 = System.nanoTime();
        stopGracefully(name);
        long t1 = System.nanoTime();
        DockerClientFactory.instance().client().startContainerCmd(containers.get(name).getContainerId()).exec();
        awaitReady(name);
        return record(new Step(name, imageOf(name), imageOf(name), millis(t1 - t0), millis(System.nanoTime() - t1)));
    }

    private Step record(Step step) {
        steps.add(step);
        LOG.info("step: {}", step);
        return step;
    }

    /** Every replace and restart so far, in order. */
    List<Step> steps() {
        return List.copyOf(steps);
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }

    /** The HTTP status of a GET, or -1 when nothing answers (yet). */
    private static int status(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try {
                return c.getResponseCode();
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return -1;
        }
    }

    private void stopGracefully(String name) {
        DockerClientFactory.instance().client().stopContainerCmd(containers.get(name).getContainerId())
                .withTimeout(STOP_SECONDS).exec();
    }

    /** Stops a backend (its targets fail from now on); it keeps its address. */
    void stopBackend(Backend b) {
        DockerClientFactory.instance().client().stopContainerCmd(containers.get(b.containerName).getContainerId())
                .withTimeout(1).exec();
    }

    /** Starts a stopped backend again; a running one stays. */
    void startBackend(Backend b) {
        try {
            DockerClientFactory.instance().client().startContainerCmd(containers.get(b.containerName).getContainerId())
                    .exec();
        } catch (NotModifiedException e) {
            LOG.debug("{} was running", b.containerName);
        }
    }

    /** The image an instance runs now. */
    String imageOf(String name) {
        return imageOf.get(name);
    }

    /** An instance's output so far. */
    String logsOf(String name) {
        return containers.get(name).getLogs();
    }

    /** Applies target definitions with the CLI of {@code image}, in a one-shot container on the network. */
    void applyTargets(String image, String yaml) {
        GenericContainer<?> cli = new GenericContainer<>(image)
                .withCommand("targets", "apply", "-f", "/tmp/targets.yaml",
                        "--bootstrap-server", "kafka:9092", "--schema-registry", "http://registry:" + REGISTRY_PORT)
                .withEnv("JAVA_OPTS", JAVA_OPTS)
                .withCopyToContainer(Transferable.of(yaml), "/tmp/targets.yaml")
                .withNetwork(network)
                .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(network.address(oneShot++)));
        String what = "healthmesh targets apply (" + image + ")";
        OneShotContainer.Ended apply = OneShotContainer.run(what, cli, Duration.ofSeconds(120));
        if (apply.exitCode() != 0) {
            throw new IllegalStateException(what + " exited with " + apply.exitCode() + ":\n" + apply.output()
                    + "\nfor:\n" + yaml);
        }
    }

    /** The address of a backend on this network. */
    String address(Backend b) {
        return network.address(b.host);
    }

    /** Kafka as the test JVM reaches it. */
    String bootstrapServers() {
        return "127.0.0.1:" + kafkaHostPort;
    }

    /** The schema registry as the test JVM reaches it (its container address: the mapped port moves on restarts). */
    String registryUrl() {
        return "http://" + network.address(instances.get("registry").host()) + ":" + REGISTRY_PORT;
    }

    /** The last {@code lines} lines of every container's output, for a failure report. */
    String logTails(int lines) {
        StringBuilder sb = new StringBuilder();
        containers.forEach((name, c) -> {
            if (c.getContainerId() == null) {
                return;
            }
            try {
                List<String> all = c.getLogs().lines().toList();
                sb.append("---- ").append(name).append('\n');
                all.subList(Math.max(0, all.size() - lines), all.size()).forEach(l -> sb.append(l).append('\n'));
            } catch (RuntimeException e) {
                sb.append("---- ").append(name).append(": no logs (").append(e.getMessage()).append(")\n");
            }
        });
        return sb.toString();
    }

    @Override
    public void close() {
        List<String> names = new ArrayList<>(containers.keySet());
        Collections.reverse(names);
        for (String name : names) {
            try {
                containers.get(name).stop();
            } catch (RuntimeException e) {
                LOG.warn("{} not removed: {}", name, e.getMessage());
            }
        }
    }
}
