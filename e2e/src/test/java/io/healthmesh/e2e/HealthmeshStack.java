package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
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

/**
 * The whole stack in containers on a {@link StaticNetwork}: one KRaft broker, the schema registry, two aggregators,
 * probers {@code a1}, {@code a2} (region {@code a}) and {@code b1} (region {@code b}), and the {@link Backend}s.
 * Configured only through the environment, as in {@code docker/compose.yaml}, with short Kafka session timeouts so
 * that failovers happen within seconds. The test JVM reaches Kafka and the registry through ports on 127.0.0.1.
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

    private final E2eImages images;
    private final StaticNetwork network;
    private final Map<String, GenericContainer<?>> containers = new LinkedHashMap<>();
    private final AtomicInteger oneShotHosts = new AtomicInteger(200);
    private final int kafkaHostPort;

    private HealthmeshStack(E2eImages images, StaticNetwork network, int kafkaHostPort) {
        this.images = images;
        this.network = network;
        this.kafkaHostPort = kafkaHostPort;
    }

    /** Starts everything (broker, registry, aggregators, probers, backends) and waits until each is ready. */
    static HealthmeshStack start(E2eImages images) {
        long started = System.nanoTime();
        HealthmeshStack stack = new HealthmeshStack(images, StaticNetwork.create(), LocalPorts.free());
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
        for (Backend b : Backend.values()) {
            backends.add(add(b.containerName, b.host, new GenericContainer<>(images.targets())
                    .withCommand(b.kind.command, Integer.toString(b.kind.port))));
        }
        add(KAFKA, 10, kafka());
        Startables.deepStart(List.of(containers.get(KAFKA))).join();
        add(REGISTRY, 11, registry());
        containers.get(REGISTRY).start();
        List<GenericContainer<?>> workers = new ArrayList<>(backends);
        for (int i = 0; i < AGGREGATORS.size(); i++) {
            workers.add(add(AGGREGATORS.get(i), 21 + i, aggregator(AGGREGATORS.get(i))));
        }
        workers.add(add(REGION_A_PROBERS.get(0), 31, prober(REGION_A_PROBERS.get(0), "a")));
        workers.add(add(REGION_A_PROBERS.get(1), 32, prober(REGION_A_PROBERS.get(1), "a")));
        workers.add(add(REGION_B_PROBER, 33, prober(REGION_B_PROBER, "b")));
        Startables.deepStart(workers).join();
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
                        Map.entry("CLUSTER_ID", "aGVhbHRobWVzaC1zdGFjaw"),
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
                // a fixed host port: the broker must advertise the address the test JVM connects to
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withExposedPorts(hostListener);
                    cmd.getHostConfig().withPortBindings(
                            new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", kafkaHostPort), hostListener));
                })
                .waitingFor(Wait.forLogMessage(".*Kafka Server started.*", 1).withStartupTimeout(START_TIMEOUT));
    }

    private GenericContainer<?> registry() {
        return new GenericContainer<>(images.healthmesh())
                .withCommand("registry")
                .withEnv(Map.of(
                        "HEALTHMESH_BOOTSTRAP_SERVERS", "kafka:9092",
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
                "HEALTHMESH_STATE_DIR", "/var/lib/healthmesh"));
    }

    private GenericContainer<?> prober(String name, String region) {
        return worker("prober", PROBER_PORT, Map.of(
                "HEALTHMESH_REGION", region,
                "HEALTHMESH_PROBER_ID", name,
                "HEALTHMESH_EVENT_LOOP_THREADS", "1"));
    }

    private GenericContainer<?> worker(String role, int port, Map<String, String> roleEnv) {
        Map<String, String> env = new LinkedHashMap<>(roleEnv);
        env.put("HEALTHMESH_BOOTSTRAP_SERVERS", "kafka:9092");
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

    /** Applies target definitions with the CLI, in a container on the stack's network; fails on a non-zero exit. */
    void applyTargets(String yaml) {
        GenericContainer<?> cli = new GenericContainer<>(images.healthmesh())
                .withCommand("targets", "apply", "-f", "/tmp/targets.yaml",
                        "--bootstrap-server", "kafka:9092", "--schema-registry", "http://registry:" + REGISTRY_PORT)
                .withEnv("JAVA_OPTS", JAVA_OPTS)
                .withCopyToContainer(Transferable.of(yaml), "/tmp/targets.yaml")
                .withNetwork(network)
                .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(network.address(nextOneShotHost())))
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofSeconds(120)));
        try (cli) {
            cli.start();
            LOG.info("targets applied:\n{}", cli.getLogs());
        } catch (RuntimeException e) {
            throw new IllegalStateException("targets apply failed:\n" + cli.getLogs() + "\nfor:\n" + yaml, e);
        }
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
        return "127.0.0.1:" + kafkaHostPort;
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
