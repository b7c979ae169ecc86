package io.healthmesh.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.status.StatusConfig;
import io.healthmesh.status.StatusWorker;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A whole healthmesh on the test broker: one real {@link AggregatorWorker}, real {@link ProberWorker}s started per
 * region, a producer of target definitions, and {@code read_committed} logs of the health-state, group-state and
 * probe-results topics. Every pipeline has its own topic prefix, aggregator application id and region names (the
 * region names the probers' consumer group, which is broker-wide), so pipelines never see each other's records.
 * {@link #close()} stops everything, probers first.
 */
final class Pipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    /** Partitions of the targets and probe-results topics: few, so that groups settle fast. */
    static final int PARTITIONS = 2;
    /**
     * The recorders' consumer settings: a request to a broker that vanished is given up after 5 s, as healthmesh's
     * own clients do, so that what a test measures is not the observer's wait (Kafka's default is 30 s).
     */
    private static final Map<String, Object> OBSERVER = Map.of("request.timeout.ms", 5_000);
    /** How long starting or settling may take on a loaded two-core machine. */
    static final Duration STARTUP = Duration.ofSeconds(45);

    private final String bootstrapServers;
    private final String schemaRegistryUrl;
    private final String run;
    private final Topics topics;
    private final AggregatorConfig aggregatorConfig;
    private final Map<String, ProberWorker> probers = new LinkedHashMap<>();
    /** Everything to close, most recent first. */
    private final Deque<AutoCloseable> closing = new ArrayDeque<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private AggregatorWorker aggregator;
    private KafkaProducer<String, TargetDefinition> definitions;
    private KafkaProducer<byte[], byte[]> raw;
    private final List<java.util.concurrent.Future<?>> pendingRaw = new ArrayList<>();
    private TopicRecorder<TargetHealth> health;
    private TopicRecorder<GroupHealth> groups;
    private TopicRecorder<ProbeResult> results;

    private Pipeline(String bootstrapServers, String schemaRegistryUrl, String run, AggregatorConfig aggregatorConfig) {
        this.bootstrapServers = bootstrapServers;
        this.schemaRegistryUrl = schemaRegistryUrl;
        this.run = run;
        this.topics = aggregatorConfig.topics();
        this.aggregatorConfig = aggregatorConfig;
    }

    /**
     * Starts the aggregator (which creates the topics), the logs and the definition producer, and returns once the
     * aggregator is RUNNING. No prober runs yet: see {@link #startProber}.
     */
    static Pipeline start(TestKafka kafka, Path stateDir) {
        return start(kafka.bootstrapServers(), kafka.schemaRegistryUrl(), stateDir,
                Map.of("replication.factor", "1", "replication.single.copy.allowed", "true"));
    }

    /**
     * {@link #start(TestKafka, Path)} on the brokers {@code bootstrapServers} (e.g. a replicated cluster) with the
     * schema registry at {@code schemaRegistryUrl}; {@code more} aggregator settings win over the ones set here.
     */
    static Pipeline start(String bootstrapServers, String schemaRegistryUrl, Path stateDir, Map<String, String> more) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrapServers);
        settings.put("schema.registry.url", schemaRegistryUrl);
        settings.put("application.id", "pipeline-" + run);
        settings.put("topic.prefix", "pipeline-" + run + ".");
        settings.put("state.dir", stateDir.resolve(run).toString());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        settings.put("partitions", Integer.toString(PARTITIONS));
        settings.put("kafka.session.timeout.ms", "6000");
        settings.put("kafka.heartbeat.interval.ms", "1000");
        settings.putAll(more);
        Pipeline pipeline = new Pipeline(bootstrapServers, schemaRegistryUrl, run, AggregatorConfig.from(settings));
        try {
            pipeline.startAggregatorAndLogs();
            return pipeline;
        } catch (RuntimeException | Error e) {
            pipeline.close();
            throw e;
        }
    }

    private void startAggregatorAndLogs() {
        aggregator = AggregatorWorker.start(aggregatorConfig);
        closing.push(aggregator);
        Map<String, Object> serde = Map.of(TestKafka.SCHEMA_REGISTRY_URL_CONFIG, schemaRegistryUrl);
        AvroSerde<TargetDefinition> definitionSerde = AvroSerde.forValues(TargetDefinition.class, serde);
        closing.push(definitionSerde);
        definitions = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), definitionSerde.serializer());
        closing.push(definitions);
        raw = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "2000000"),
                new ByteArraySerializer(), new ByteArraySerializer());
        closing.push(raw);
        AvroSerde<TargetHealth> healthSerde = AvroSerde.forValues(TargetHealth.class, serde);
        closing.push(healthSerde);
        health = new TopicRecorder<>(bootstrapServers, topics.healthState(), healthSerde.deserializer(),
                OBSERVER);
        closing.push(health);
        AvroSerde<GroupHealth> groupSerde = AvroSerde.forValues(GroupHealth.class, serde);
        closing.push(groupSerde);
        groups = new TopicRecorder<>(bootstrapServers, topics.groupState(), groupSerde.deserializer(),
                OBSERVER);
        closing.push(groups);
        AvroSerde<ProbeResult> resultSerde = AvroSerde.forValues(ProbeResult.class, serde);
        closing.push(resultSerde);
        results = new TopicRecorder<>(bootstrapServers, topics.probeResults(), resultSerde.deserializer(),
                OBSERVER);
        closing.push(results);
        Await.until(STARTUP, aggregator::isRunning, () -> "aggregator state " + aggregator.state());
    }

    /** The region name this pipeline uses for {@code name}: unique per pipeline, e.g. {@code a-1f2e3d4c}. */
    String region(String name) {
        return name + "-" + run;
    }

    /**
     * Starts the status role on this pipeline's topics (the aggregator does not serve the page by default) and
     * returns once its feed reads them; it is closed with the pipeline.
     */
    StatusWorker startStatusPage() {
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrapServers);
        settings.put("schema.registry.url", schemaRegistryUrl);
        settings.put("topic.prefix", topics.prefix());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        StatusWorker status = StatusWorker.start(StatusConfig.from(settings));
        closing.push(status);
        Await.until(STARTUP, status::isReady, () -> "the status page's feed reads its topics");
        return status;
    }

    /**
     * Starts a prober of region {@link #region(String) region(name)} with the default deny list plus
     * {@code extraDenied} CIDRs, loopback allowed (the backends listen there), and returns once it is ready (assigned, initial read of the targets done).
     */
    ProberWorker startProber(String name, List<String> extraDenied) {
        return startProber(name, extraDenied, Map.of());
    }

    /** {@link #startProber(String, List)} with more prober settings (they win over the ones set here). */
    ProberWorker startProber(String name, List<String> extraDenied, Map<String, String> more) {
        if (probers.containsKey(name)) {
            throw new IllegalStateException("a prober of region " + name + " runs already");
        }
        List<String> deny = new ArrayList<>(ProbeEngineConfig.DEFAULT_DENY_LIST);
        deny.addAll(extraDenied);
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrapServers);
        settings.put("schema.registry.url", schemaRegistryUrl);
        settings.put("region", region(name));
        settings.put("prober.id", "prober-" + name + "-" + run);
        settings.put("topic.prefix", topics.prefix());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        settings.put("event.loop.threads", "1");
        settings.put("deny.list", String.join(",", deny));
        // the backends listen on loopback, denied by default; a more specific deny (region b's 127.0.0.2/32) still holds
        settings.put("allow.list", "127.0.0.0/8");
        settings.put("kafka.session.timeout.ms", "6000");
        settings.put("kafka.heartbeat.interval.ms", "500");
        settings.putAll(more);
        ProberWorker prober = ProberWorker.start(ProberConfig.from(settings));
        probers.put(name, prober);
        closing.push(prober);
        Await.until(STARTUP, prober::ready, () -> "prober of region " + name + " not ready");
        return prober;
    }

    /** Stops every prober of region {@code name} (closes it) and returns the instant the close returned. */
    long stopProber(String name) {
        ProberWorker prober = probers.remove(name);
        if (prober == null) {
            throw new IllegalStateException("no prober of region " + name + " runs");
        }
        prober.close();
        return System.currentTimeMillis();
    }

    /** Writes a target definition and waits until the broker has it. */
    void define(TargetSpec spec) {
        try {
            definitions.send(new ProducerRecord<>(topics.targets(), spec.id(), TargetSpecs.toAvro(spec)))
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write the definition of " + spec.id(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + spec.id(), e);
        }
    }

    /**
     * Writes raw bytes to the targets topic (or the probe-results topic) without waiting; {@link #flushRaw} waits
     * for every write so far and fails if the broker refused one.
     */
    void sendRaw(boolean toResults, byte[] key, byte[] value) {
        pendingRaw.add(raw.send(new ProducerRecord<>(toResults ? topics.probeResults() : topics.targets(), key, value)));
    }

    /** Waits until the broker has every raw record sent so far. */
    void flushRaw() {
        try {
            for (java.util.concurrent.Future<?> sent : pendingRaw) {
                sent.get(30, TimeUnit.SECONDS);
            }
            pendingRaw.clear();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write a raw record", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing raw records", e);
        }
    }

    AggregatorWorker aggregator() {
        return aggregator;
    }

    /** Writes many target definitions at once and waits until the broker has them all. */
    void defineAll(List<TargetSpec> specs) {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (TargetSpec spec : specs) {
            sent.add(definitions.send(new ProducerRecord<>(topics.targets(), spec.id(), TargetSpecs.toAvro(spec))));
        }
        definitions.flush();
        for (java.util.concurrent.Future<?> f : sent) {
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("cannot write a target definition", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing definitions", e);
            }
        }
    }

    /** Target state events, as a user of {@code health-state} sees them. */
    TopicRecorder<TargetHealth> health() {
        return health;
    }

    /** Group routing events, as a user of {@code group-state} sees them. */
    TopicRecorder<GroupHealth> groups() {
        return groups;
    }

    /** Every probe result published by the probers. */
    TopicRecorder<ProbeResult> results() {
        return results;
    }

    AggregatorConfig aggregatorConfig() {
        return aggregatorConfig;
    }

    /** The aggregator's HTTP port (query API, metrics). */
    int aggregatorPort() {
        return aggregator.httpPort();
    }

    /**
     * {@code GET /targets/{id}} on the aggregator's query API: the JSON when it answers 200, empty while it answers
     * 404 (not aggregated yet) or 503 (stores not queryable yet). Any other status fails the test.
     */
    Optional<JsonNode> queryTarget(String id) {
        String path = "/targets/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + aggregator.httpPort() + path))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return switch (response.statusCode()) {
                case 200 -> Optional.of(json.readTree(response.body()));
                case 404, 503 -> Optional.empty();
                default -> throw new AssertionError("GET " + path + ": " + response.statusCode() + " " + response.body());
            };
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted during GET " + path, e);
        }
    }

    @Override
    public void close() {
        for (ProberWorker prober : probers.values()) {
            closing.remove(prober);
            closeQuietly(prober);
        }
        probers.clear();
        while (!closing.isEmpty()) {
            closeQuietly(closing.pop());
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            // a failing close must not hide the test's own failure; the broker outlives the pipeline anyway
            LOG.warn("closing {} failed", resource, e);
        }
    }
}
