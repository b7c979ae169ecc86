package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.ContainerNetwork;
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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The whole stack in containers on a {@link StaticNetwork}: one KRaft broker, the schema registry, two aggregators,
 * probers {@code a1}, {@code a2} (region {@code a}) and {@code b1} (region {@code b}), and the {@link Backend}s.
 * Configured only through the environment, as in {@code docker/compose.yaml}, with short Kafka session timeouts so
 * that failovers happen within seconds. The test JVM reaches Kafka and the registry through ports on 127.0.0.1.
 * Another {@link Shape} runs other parts, e.g. three brokers ({@code kafka-1..3}) with three copies of every topic,
 * as {@code docker/compose.three-brokers.yaml}.
 */
final class HealthmeshStack implements AutoCloseable {

    /** Session timeout of every worker's Kafka consumer: how long a killed worker keeps its partitions. */
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);
    static final String REGISTRY = "registry";
    static final String KAFKA = "kafka";
    static final List<String> AGGREGATORS = List.of("aggregator-1", "aggregator-2");
    static final List<String> REGION_A_PROBERS = List.of("prober-a1", "prober-a2");
    static final String REGION_B_PROBER = "prober-b1";

    private static final Logger LOG = LoggerFactory.getLogger(HealthmeshStack.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
    private static final int KAFKA_HOST_LISTENER = 19092;
    private static final int REGISTRY_PORT = 8081;
    /** Fresh per run: the registry's users (docs/SECURITY.md). */
    private static final String REGISTRY_ADMIN_PASSWORD = java.util.UUID.randomUUID().toString();
    private static final String REGISTRY_WORKER_PASSWORD = java.util.UUID.randomUUID().toString();
    private static final int PROBER_PORT = 8080;
    private static final int AGGREGATOR_PORT = 8082;
    /** Small heaps, C1 only, one GC thread: seven JVMs share two cores. */
    private static final String JAVA_OPTS = "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    /**
     * What a stack runs.
     *
     * @param brokers KRaft nodes, each a broker and a controller: 1 ({@code kafka}, topics with one copy, allowed
     *     explicitly) or 3 and more ({@code kafka-1..N}, three copies and {@code min.insync.replicas} 2)
     * @param aggregators the aggregator containers' names
     * @param probers prober container name -> region
     * @param backends the example backends started with the stack
     */
    record Shape(int brokers, List<String> aggregators, Map<String, String> probers, List<Backend> backends) {

        /** One broker, two aggregators, three probers in two regions, every backend. */
        static final Shape DEFAULT = new Shape(1, AGGREGATORS, orderedMap(REGION_A_PROBERS.get(0), "a",
                REGION_A_PROBERS.get(1), "a", REGION_B_PROBER, "b"), List.of(Backend.values()));

        Shape {
            if (brokers != 1 && brokers < 3) {
                throw new IllegalArgumentException("brokers: " + brokers + " (expected: 1, or 3 and more)");
            }
        }

        private static Map<String, String> orderedMap(String... keysAndValues) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < keysAndValues.length; i += 2) {
                map.put(keysAndValues[i], keysAndValues[i + 1]);
            }
            return Collections.unmodifiableMap(map);
        }
    }

    private final E2eImages images;
    private final Shape shape;
    private final StaticNetwork network;
    private final Map<String, GenericContainer<?>> containers = new LinkedHashMap<>();
    /** Container name -> its fixed address on the stack's network, to connect it again after a cut. */
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final AtomicInteger oneShotHosts = new AtomicInteger(200);
    /** Broker container name -> the host port its HOST listener is published on. */
    private final Map<String, Integer> kafkaHostPorts = new LinkedHashMap<>();

    private HealthmeshStack(E2eImages images, Shape shape, StaticNetwork network) {
        this.images = images;
        this.shape = shape;
        this.network = network;
        for (int i = 1; i <= shape.brokers(); i++) {
            kafkaHostPorts.put(brokerName(i), LocalPorts.free());
        }
    }

    /** Starts everything (broker, registry, aggregators, probers, backends) and waits until each is ready. */
    static HealthmeshStack start(E2eImages images) {
        return start(images, Shape.DEFAULT);
    }

    /** Starts what {@code shape} says and waits until each part is ready. */
    static HealthmeshStack start(E2eImages images, Shape shape) {
        long started = System.nanoTime();
        HealthmeshStack stack = new HealthmeshStack(images, shape, StaticNetwork.create());
        try {
            stack.startAll();
        } catch (RuntimeException | Error e) {
            LOG.error("stack did not start; container logs:\n{}", stack.logTails(60));
            stack.close();
            throw e;
        }
        LOG.info("stack up in {} s", Duration.ofNanos(System.nanoTime() - started).toSeconds());
        return stack;
    }

    private void startAll() {
        List<GenericContainer<?>> backends = new ArrayList<>();
        for (Backend b : shape.backends()) {
            backends.add(add(b.containerName, b.host, new GenericContainer<>(images.targets())
                    .withCommand(b.kind.command, Integer.toString(b.kind.port))));
        }
        // the nodes of a quorum wait for each other: they start together
        List<GenericContainer<?>> brokers = new ArrayList<>();
        for (int i = 1; i <= shape.brokers(); i++) {
            brokers.add(add(brokerName(i), i == 1 ? 10 : 11 + i, kafka(i)));
        }
        Startables.deepStart(brokers).join();
        add(REGISTRY, 11, registry());
        containers.get(REGISTRY).start();
        List<GenericContainer<?>> workers = new ArrayList<>(backends);
        for (int i = 0; i < shape.aggregators().size(); i++) {
            workers.add(add(shape.aggregators().get(i), 21 + i, aggregator(shape.aggregators().get(i))));
        }
        int proberHost = 31;
        for (Map.Entry<String, String> prober : shape.probers().entrySet()) {
            workers.add(add(prober.getKey(), proberHost++, prober(prober.getKey(), prober.getValue())));
        }
        Startables.deepStart(workers).join();
    }

    private GenericContainer<?> add(String name, int host, GenericContainer<?> container) {
        String address = network.address(host);
        container.withNetwork(network).withNetworkAliases(name)
                .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(address)
                        .withName(network.name() + "-" + name));
        containers.put(name, container);
        addresses.put(name, address);
        return container;
    }

    /** The broker container of KRaft node {@code nodeId} (1-based): {@code kafka} alone, else {@code kafka-<id>}. */
    String brokerName(int nodeId) {
        return shape.brokers() == 1 ? KAFKA : KAFKA + "-" + nodeId;
    }

    /** The broker containers' names, node 1 first. */
    List<String> brokerNames() {
        return List.copyOf(kafkaHostPorts.keySet());
    }

    private GenericContainer<?> kafka(int nodeId) {
        String name = brokerName(nodeId);
        int hostPort = kafkaHostPorts.get(name);
        int copies = Math.min(3, shape.brokers());
        // one broker: one copy; a cluster: three, of which two must acknowledge a write (compose.three-brokers.yaml)
        String minInsync = copies >= 3 ? "2" : "1";
        String voters = IntStream.rangeClosed(1, shape.brokers()).mapToObj(i -> i + "@" + brokerName(i) + ":9093")
                .collect(Collectors.joining(","));
        ExposedPort hostListener = ExposedPort.tcp(KAFKA_HOST_LISTENER);
        return new GenericContainer<>(images.kafka())
                .withEnv(Map.ofEntries(
                        Map.entry("CLUSTER_ID", "aGVhbHRobWVzaC1zdGFjaw"),
                        Map.entry("KAFKA_NODE_ID", Integer.toString(nodeId)),
                        Map.entry("KAFKA_PROCESS_ROLES", "broker,controller"),
                        Map.entry("KAFKA_LISTENERS", "PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:" + KAFKA_HOST_LISTENER),
                        Map.entry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://" + name + ":9092,HOST://127.0.0.1:" + hostPort),
                        Map.entry("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
                                "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,HOST:PLAINTEXT"),
                        Map.entry("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER"),
                        Map.entry("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT"),
                        Map.entry("KAFKA_CONTROLLER_QUORUM_VOTERS", voters),
                        Map.entry("KAFKA_DEFAULT_REPLICATION_FACTOR", Integer.toString(copies)),
                        Map.entry("KAFKA_MIN_INSYNC_REPLICAS", minInsync),
                        Map.entry("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE", "false"),
                        Map.entry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", Integer.toString(copies)),
                        Map.entry("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "6"),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", Integer.toString(copies)),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", minInsync),
                        Map.entry("KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS", "6"),
                        Map.entry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", Integer.toString(copies)),
                        Map.entry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", minInsync),
                        Map.entry("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0"),
                        Map.entry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false"),
                        Map.entry("KAFKA_HEAP_OPTS", shape.brokers() == 1 ? "-Xmx512m -Xms256m" : "-Xmx384m -Xms128m")))
                // a fixed host port: the broker must advertise the address the test JVM connects to
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withExposedPorts(hostListener);
                    cmd.getHostConfig().withPortBindings(
                            new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", hostPort), hostListener));
                })
                .waitingFor(Wait.forLogMessage(".*Kafka Server started.*", 1).withStartupTimeout(START_TIMEOUT));
    }

    private GenericContainer<?> registry() {
        return new GenericContainer<>(images.healthmesh())
                .withCommand("registry")
                .withEnv(Map.of(
                        "HEALTHMESH_BOOTSTRAP_SERVERS", innerBootstrapServers(),
                        "HEALTHMESH_HTTP_PORT", Integer.toString(REGISTRY_PORT),
                        // authentication on, as in docker/compose.yaml: workers read-only, anonymous clients read
                        "HEALTHMESH_REGISTRY_USERS", "e2e-admin:admin:" + REGISTRY_ADMIN_PASSWORD + ",e2e-worker:read:"
                                + REGISTRY_WORKER_PASSWORD,
                        "HEALTHMESH_REGISTRY_ANONYMOUS_READ", "true",
                        "JAVA_OPTS", JAVA_OPTS))
                .withExposedPorts(REGISTRY_PORT)
                .waitingFor(Wait.forHttp("/readyz").forPort(REGISTRY_PORT).forStatusCode(200)
                        .withStartupTimeout(START_TIMEOUT));
    }

    private GenericContainer<?> aggregator(String name) {
        return worker("aggregator", AGGREGATOR_PORT, Map.of(
                "HEALTHMESH_APPLICATION_SERVER", name + ":" + AGGREGATOR_PORT,
                "HEALTHMESH_STATE_DIR", "/var/lib/healthmesh",
                // one broker holds one copy, knowingly; a cluster gets the default (three copies, two in sync)
                "HEALTHMESH_REPLICATION_FACTOR", shape.brokers() == 1 ? "1" : "3",
                "HEALTHMESH_REPLICATION_SINGLE_COPY_ALLOWED", Boolean.toString(shape.brokers() == 1)));
    }

    private GenericContainer<?> prober(String name, String region) {
        return worker("prober", PROBER_PORT, Map.of(
                "HEALTHMESH_REGION", region,
                "HEALTHMESH_PROBER_ID", name,
                "HEALTHMESH_EVENT_LOOP_THREADS", "1"));
    }

    private GenericContainer<?> worker(String role, int port, Map<String, String> roleEnv) {
        Map<String, String> env = new LinkedHashMap<>(roleEnv);
        env.put("HEALTHMESH_BOOTSTRAP_SERVERS", innerBootstrapServers());
        env.put("HEALTHMESH_SCHEMA_REGISTRY_URL", "http://registry:" + REGISTRY_PORT);
        env.put("HEALTHMESH_BASIC_AUTH_CREDENTIALS_SOURCE", "USER_INFO");
        env.put("HEALTHMESH_BASIC_AUTH_USER_INFO", "e2e-worker:" + REGISTRY_WORKER_PASSWORD);
        env.put("HEALTHMESH_SCHEMA_REGISTRY_BASIC_AUTH_ALLOW_INSECURE_HTTP", "true");
        env.put("HEALTHMESH_HTTP_PORT", Integer.toString(port));
        env.put("HEALTHMESH_KAFKA_SESSION_TIMEOUT_MS", Long.toString(SESSION_TIMEOUT.toMillis()));
        env.put("HEALTHMESH_KAFKA_HEARTBEAT_INTERVAL_MS", "1000");
        env.put("JAVA_OPTS", JAVA_OPTS);
        // the image's HEALTHCHECK script, used by awaitHealthy; explicit rather than guessed from the command line
        env.put("HEALTHCHECK_PORT", Integer.toString(port));
        return new GenericContainer<>(images.healthmesh())
                .withCommand(role)
                .withEnv(env)
                .withExposedPorts(port)
                .waitingFor(Wait.forHttp("/healthz").forPort(port).forStatusCode(200).withStartupTimeout(START_TIMEOUT));
    }

    /** Kafka as the containers on the stack's network reach it. */
    String innerBootstrapServers() {
        return kafkaHostPorts.keySet().stream().map(b -> b + ":9092").collect(Collectors.joining(","));
    }

    /** The schema registry as the containers on the stack's network reach it. */
    String innerRegistryUrl() {
        return "http://registry:" + REGISTRY_PORT;
    }

    /**
     * Runs the healthmesh CLI once in a container on the stack's network (the image under test) and returns its exit
     * code and output, whatever the code; fails when it cannot be launched, never runs, or does not end within
     * {@code timeout}.
     */
    OneShotContainer.Ended runCli(Duration timeout, String... args) {
        return OneShotContainer.run("healthmesh " + String.join(" ", args), cliContainer(args), timeout);
    }

    /** Applies target definitions with the CLI, in a container on the stack's network; fails on a non-zero exit. */
    void applyTargets(String yaml) {
        GenericContainer<?> cli = cliContainer("targets", "apply", "-f", "/tmp/targets.yaml",
                "--bootstrap-server", innerBootstrapServers(), "--schema-registry", innerRegistryUrl())
                .withCopyToContainer(Transferable.of(yaml), "/tmp/targets.yaml");
        OneShotContainer.Ended apply = OneShotContainer.run("healthmesh targets apply", cli, Duration.ofSeconds(120));
        if (apply.exitCode() != 0) {
            throw new IllegalStateException("healthmesh targets apply exited with " + apply.exitCode() + ":\n"
                    + apply.output() + "\nfor:\n" + yaml);
        }
        LOG.info("targets applied:\n{}", apply.output());
    }

    /** A one-shot CLI container on the stack's network, at the next address of its one-shot range (.200 to .249). */
    private GenericContainer<?> cliContainer(String... args) {
        return new GenericContainer<>(images.healthmesh())
                .withCommand(args)
                .withEnv("JAVA_OPTS", JAVA_OPTS)
                .withNetwork(network)
                .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(network.address(nextOneShotHost())));
    }

    private int nextOneShotHost() {
        return 200 + Math.floorMod(oneShotHosts.getAndIncrement() - 200, 50);
    }

    /** The address of a backend on the stack's network (what its target definitions probe). */
    String address(Backend backend) {
        return network.address(backend.host);
    }

    /** The name of the container at {@code address} on the stack's network. */
    Optional<String> nameAt(String address) {
        return containers.entrySet().stream()
                .filter(e -> e.getValue().getContainerId() != null)
                .filter(e -> address.equals(docker().inspectContainerCmd(e.getValue().getContainerId()).exec()
                        .getNetworkSettings().getNetworks().values().stream().findFirst()
                        .map(n -> n.getIpAddress()).orElse(null)))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** Kafka as the test JVM reaches it. */
    String bootstrapServers() {
        return kafkaHostPorts.values().stream().map(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(","));
    }

    /** The schema registry as the test JVM reaches it. */
    String registryUrl() {
        GenericContainer<?> registry = containers.get(REGISTRY);
        return "http://127.0.0.1:" + registry.getMappedPort(REGISTRY_PORT);
    }

    /** Stops a container gracefully (SIGTERM, then SIGKILL after 2 s); it keeps its address for {@link #start}. */
    void stop(String name) {
        LOG.info("stopping {}", name);
        docker().stopContainerCmd(id(name)).withTimeout(2).exec();
    }

    /** Stops a container with SIGTERM, then SIGKILL after {@code grace}: a broker's controlled shutdown needs seconds. */
    void stop(String name, Duration grace) {
        LOG.info("stopping {} (grace {} s)", name, grace.toSeconds());
        docker().stopContainerCmd(id(name)).withTimeout((int) grace.toSeconds()).exec();
    }

    /** Kills a container at once (SIGKILL): no goodbye to Kafka, no closing of anything. */
    void kill(String name) {
        LOG.info("killing {}", name);
        docker().killContainerCmd(id(name)).exec();
    }

    /** Starts a stopped or killed container again, same address, same configuration; a running one stays. */
    void start(String name) {
        LOG.info("starting {}", name);
        try {
            docker().startContainerCmd(id(name)).exec();
        } catch (NotModifiedException e) {
            LOG.info("{} was running", name);
        }
    }

    /**
     * Cuts a running container off the stack's network ({@code docker network disconnect}): it keeps running, its
     * peers' packets to it are lost and its connections fall silent, as when a host drops off the network.
     */
    void disconnect(String name) {
        LOG.info("cutting {} off the network", name);
        docker().disconnectFromNetworkCmd().withNetworkId(network.getId()).withContainerId(id(name)).exec();
    }

    /** Connects a container cut off by {@link #disconnect} again, at its address and under its name. */
    void reconnect(String name) {
        LOG.info("connecting {} again", name);
        docker().connectToNetworkCmd().withNetworkId(network.getId()).withContainerId(id(name))
                .withContainerNetwork(new ContainerNetwork().withAliases(name)
                        .withIpamConfig(new ContainerNetwork.Ipam().withIpv4Address(addresses.get(name))))
                .exec();
    }

    /** Waits (bounded) until a restarted worker's /healthz answers 200, checked inside its container. */
    void awaitHealthy(String name, Duration timeout) {
        GenericContainer<?> c = containers.get(name);
        Await.value(timeout, () -> {
            try {
                return c.execInContainer("/usr/local/bin/healthmesh-healthcheck").getExitCode() == 0
                        ? Optional.of(true) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (RuntimeException e) {
                // not running yet
                return Optional.empty();
            }
        }, () -> name + " /healthz to answer 200");
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

    private String id(String name) {
        GenericContainer<?> c = containers.get(name);
        if (c == null || c.getContainerId() == null) {
            throw new IllegalArgumentException("no container " + name + " (expected one of " + containers.keySet() + ")");
        }
        return c.getContainerId();
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
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
        network.close();
    }
}
