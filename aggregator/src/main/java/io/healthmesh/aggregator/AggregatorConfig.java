package io.healthmesh.aggregator;

import io.healthmesh.aggregator.domain.ResultTrust;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.UnknownTargetHold;
import io.healthmesh.aggregator.topology.BoundedRocksDbMemory;
import io.healthmesh.aggregator.topology.RecordSafeHandlers;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.ops.BrokerLossTimeouts;
import io.healthmesh.ops.GroupMembership;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.Settings;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;
import io.healthmesh.status.StatusSettings;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static io.healthmesh.aggregator.AggregatorSettings.APPLICATION_ID;
import static io.healthmesh.aggregator.AggregatorSettings.APPLICATION_SERVER;
import static io.healthmesh.aggregator.AggregatorSettings.COMMIT_INTERVAL_MS;
import static io.healthmesh.aggregator.AggregatorSettings.COMMIT_ON_CHANGE;
import static io.healthmesh.aggregator.AggregatorSettings.COMMIT_PACED;
import static io.healthmesh.aggregator.AggregatorSettings.GROUP_INSTANCE_ID;
import static io.healthmesh.aggregator.AggregatorSettings.GROUP_ROUTABLE_MAX;
import static io.healthmesh.aggregator.AggregatorSettings.HISTORY_LENGTH;
import static io.healthmesh.aggregator.AggregatorSettings.UNKNOWN_TARGET_HOLD_MAX;
import static io.healthmesh.aggregator.AggregatorSettings.UNKNOWN_TARGET_HOLD_MS;
import static io.healthmesh.aggregator.AggregatorSettings.HTTP_HOST;
import static io.healthmesh.aggregator.AggregatorSettings.HTTP_PORT;
import static io.healthmesh.aggregator.AggregatorSettings.MAX_FUTURE_SKEW_MS;
import static io.healthmesh.aggregator.AggregatorSettings.PARTITIONS;
import static io.healthmesh.aggregator.AggregatorSettings.PUNCTUATE_INTERVAL_MS;
import static io.healthmesh.aggregator.AggregatorSettings.REGION_EVICTION_MS;
import static io.healthmesh.aggregator.AggregatorSettings.REPLICATION_FACTOR;
import static io.healthmesh.aggregator.AggregatorSettings.REPLICATION_SINGLE_COPY_ALLOWED;
import static io.healthmesh.aggregator.AggregatorSettings.ROCKSDB_MEMORY_MB;
import static io.healthmesh.aggregator.AggregatorSettings.STALENESS_FACTOR;
import static io.healthmesh.aggregator.AggregatorSettings.STALENESS_MAX_BEHIND_MS;
import static io.healthmesh.aggregator.AggregatorSettings.STATE_DIR;
import static io.healthmesh.aggregator.AggregatorSettings.STATUS_PAGE_ENABLED;
import static io.healthmesh.aggregator.AggregatorSettings.TOPIC_PREFIX;
import static java.util.Objects.requireNonNull;

/**
 * Every setting of the aggregator, validated once by {@link #from}. Settings come from
 * {@link Settings#load} (file, then {@code HEALTHMESH_*} environment); keys under {@code kafka.} pass through to
 * Kafka Streams and its clients with the prefix removed; any other unknown key is refused. Each key is declared
 * once in {@link #SETTINGS} and read through the shared {@link SettingsReader} (docs/CONFIGURATION.md lists them).
 *
 * @param applicationServer {@code host:port} other instances reach this one's query API at; {@code null} means
 *     {@code <http.host or 127.0.0.1>:<bound http port>}, enough for a single instance
 * @param kafka pass-through Kafka settings, {@code kafka.} removed
 * @param registryClient the registry client's TLS and plain-http settings ({@code schema.registry.ssl.*},
 *     {@code schema.registry.basic.auth.allow.insecure.http}), passed to the serdes as they are
 * @param http the HTTP servers' tokens, separate ops listener and limits
 * @param statusPage serve the status page ({@code status.page.enabled}); off by default, as the page keeps every target
 *     of the fleet in the heap of each instance that serves it (the {@code status} role serves it on its own)
 * @param status the status page's settings, used when {@code statusPage}
 * @param trust which results are believed (future skew, listed regions) and when a silent region is forgotten
 * @param groupRoutableMax ids at most in a {@code GroupHealth} event's routable list ({@code group.routable.max})
 * @param rocksdbMemoryMb the state stores' RocksDB memory (block cache and write buffers) of this instance, MiB
 * @param commitOnChange ask Kafka Streams to commit as soon as a state event is written for fresh input, rather than
 *     wait for the commit interval ({@code commit.on.change})
 * @param commitPaced start commits one commit interval apart ({@code commit.paced}); otherwise Kafka Streams counts
 *     its interval from the end of the previous commit
 */
public record AggregatorConfig(String bootstrapServers, String applicationId, Topics topics, String schemaRegistryUrl,
                               String basicAuthCredentialsSource, String basicAuthUserInfo, Path stateDir,
                               String httpHost, int httpPort, String applicationServer, StalenessRule staleness,
                               Duration punctuateInterval, Duration commitInterval, int partitions,
                               TopicReplication replication, Map<String, String> kafka, ResultTrust trust,
                               int historyLength, Map<String, String> registryClient, HttpOptions http,
                               boolean statusPage, StatusSettings status, int groupRoutableMax, int rocksdbMemoryMb,
                               boolean commitOnChange, boolean commitPaced, UnknownTargetHold unknownTargetHold) {

    public static final String DEFAULT_APPLICATION_ID = "healthmesh-aggregator";
    public static final int DEFAULT_HTTP_PORT = 8082;
    public static final int DEFAULT_HISTORY_LENGTH = 50;
    public static final long DEFAULT_PUNCTUATE_INTERVAL_MS = 1_000;
    /**
     * Half Kafka Streams' own 100 ms under exactly-once: what keeps detection within 100 ms of the SPEC formula at
     * p99, for twice the transactions (docs/OPERATIONS.md, "Detection latency and the commit interval").
     */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 50;
    /** The consumer's internal switch for sending a LeaveGroup request on close (Kafka Streams turns it off). */
    static final String LEAVE_GROUP_ON_CLOSE = "internal.leave.group.on.close";
    public static final int DEFAULT_ROCKSDB_MEMORY_MB = BoundedRocksDbMemory.DEFAULT_MEGABYTES;
    /** Kafka Streams' {@code transaction.timeout.ms} for its exactly-once producers unless set (its default). */
    static final long STREAMS_EOS_TRANSACTION_TIMEOUT_MS = 10_000;

    /** Linger of the Streams producer unless {@code kafka.producer.linger.ms} says otherwise (Streams' own: 100). */
    public static final long DEFAULT_PRODUCER_LINGER_MS = 5;

    /** Every key besides {@code kafka.*}, with its default, range and doc (docs/CONFIGURATION.md lists them). */
    public static final List<Setting<?>> SETTINGS = AggregatorSettings.ALL;

    public AggregatorConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(applicationId, "applicationId");
        requireNonNull(topics, "topics");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(stateDir, "stateDir");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(staleness, "staleness");
        requireNonNull(punctuateInterval, "punctuateInterval");
        requireNonNull(commitInterval, "commitInterval");
        kafka = Map.copyOf(requireNonNull(kafka, "kafka"));
        requireNonNull(trust, "trust");
        registryClient = Map.copyOf(requireNonNull(registryClient, "registryClient"));
        requireNonNull(http, "http");
        requireNonNull(status, "status");
    }

    /**
     * Builds the config from settings; every problem is reported at once.
     *
     * @throws IllegalArgumentException listing every unknown key and invalid value, one per line, such as
     *     {@code staleness.factor: 0.5 (expected: 1.0..100.0)}
     */
    public static AggregatorConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("aggregator", settings, SETTINGS)
                .accepting(RegistryClients::isClientKey);
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String registry = r.get(WorkerSettings.SCHEMA_REGISTRY_URL);
        String authSource = r.get(WorkerSettings.CREDENTIALS_SOURCE);
        String userInfo = r.get(WorkerSettings.USER_INFO);
        String applicationId = r.get(APPLICATION_ID);
        String prefix = r.get(TOPIC_PREFIX);
        String stateDir = r.get(STATE_DIR);
        String httpHost = r.get(HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        String server = r.get(APPLICATION_SERVER);
        double factor = r.get(STALENESS_FACTOR);
        long maxBehind = r.get(STALENESS_MAX_BEHIND_MS);
        long punctuate = r.get(PUNCTUATE_INTERVAL_MS);
        long commit = r.get(COMMIT_INTERVAL_MS);
        boolean commitOnChange = r.get(COMMIT_ON_CHANGE);
        boolean commitPaced = r.get(COMMIT_PACED);
        int partitions = r.get(PARTITIONS);
        int replication = r.get(REPLICATION_FACTOR);
        boolean singleCopy = r.get(REPLICATION_SINGLE_COPY_ALLOWED);
        long maxSkew = r.get(MAX_FUTURE_SKEW_MS);
        long eviction = r.get(REGION_EVICTION_MS);
        int historyLength = r.get(HISTORY_LENGTH);
        UnknownTargetHold hold = new UnknownTargetHold(r.get(UNKNOWN_TARGET_HOLD_MS), r.get(UNKNOWN_TARGET_HOLD_MAX));
        int routableMax = r.get(GROUP_ROUTABLE_MAX);
        int rocksdbMemory = r.get(ROCKSDB_MEMORY_MB);
        boolean statusPage = r.get(STATUS_PAGE_ENABLED);
        StatusSettings status = StatusSettings.read(r);
        String instanceId = r.get(GROUP_INSTANCE_ID, AggregatorSettings.defaultInstanceId(stateDir));
        // a lost broker costs seconds, not minutes (BrokerLossTimeouts); the pass-through wins
        Map<String, String> kafka = BrokerLossTimeouts.withStreamsDefaults(GroupMembership.withDefaults(r.kafka(),
                instanceId));
        Map<String, String> registryClient = RegistryClients.clientKeys(settings);
        HttpOptions http = HttpOptions.read(r);
        r.finish();
        return new AggregatorConfig(bootstrap, applicationId, new Topics(prefix), registry, authSource, userInfo,
                Path.of(stateDir), httpHost, httpPort, server.isEmpty() ? null : server, new StalenessRule(factor, maxBehind),
                Duration.ofMillis(punctuate), Duration.ofMillis(commit), partitions,
                new TopicReplication((short) replication, singleCopy), kafka,
                new ResultTrust(maxSkew, eviction), historyLength, registryClient, http, statusPage, status, routableMax,
                rocksdbMemory, commitOnChange, commitPaced, hold);
    }

    /** The serde settings (Confluent's keys) for every Avro serde of the topology. */
    public Map<String, Object> serdeConfig() {
        return RegistryClients.serdeConfig(schemaRegistryUrl, basicAuthCredentialsSource, basicAuthUserInfo,
                registryClient);
    }

    /**
     * The Kafka Streams properties: exactly-once v2, this config's ids, directories and intervals, then the
     * {@code kafka.*} pass-through (which may refine anything but the processing guarantee).
     *
     * @param server the {@code application.server} to advertise
     */
    public Properties streamsProperties(String server) {
        Properties props = new Properties();
        // the commit flushes the producer anyway; a short linger sends during the interval, so the commit has less to
        // send (docs/OPERATIONS.md, "Detection latency and the commit interval")
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), Long.toString(DEFAULT_PRODUCER_LINGER_MS));
        // the changelogs and state topics take several times the bytes of the results they come from (history
        // entries, whole states): lz4, as the prober's results, unless kafka.producer.compression.type says otherwise
        props.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        // a stream thread with nothing to read waits in poll() for poll.ms and checks whether a commit is due only
        // after it: with Streams' 100 ms an event could wait the commit interval plus 100 ms. A tenth of the interval
        // bounds that extra wait (an idle poll costs next to nothing).
        props.put(StreamsConfig.POLL_MS_CONFIG, Long.toString(pollMs(commitInterval)));
        props.putAll(kafka);
        props.put(BoundedRocksDbMemory.MEGABYTES_CONFIG, rocksdbMemoryMb);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // paced commits are asked for by the topology (CommitPacer); Kafka Streams' own interval is then a backstop
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitPaced
                ? pacedBackstopMs(commitInterval, kafka) : commitInterval.toMillis()));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(replication.factor()));
        // the changelogs and repartition topics keep what a write needs as healthmesh's own topics do
        props.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                Integer.toString(replication.minInsyncReplicas()));
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, requireNonNull(server, "server"));
        // a stopped instance leaves the group at once, so its partitions move without waiting for its session to
        // time out (45 s by default; measured by AggregatorRestartHandOverIT): Kafka Streams' consumers do not send a
        // LeaveGroup on close by default, and close(leaveGroup) only removes static members
        props.putIfAbsent(StreamsConfig.mainConsumerPrefix(LEAVE_GROUP_ON_CLOSE), "true");
        // a restart must neither lose nor repeat a state event: not negotiable, so set after the pass-through
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // no record may stop a partition, and none is retried forever (BEHAVIOUR.md section 9): not negotiable either
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RecordSafeHandlers.Processing.class);
        props.put(StreamsConfig.DEFAULT_PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, RecordSafeHandlers.Production.class);
        return props;
    }

    /**
     * Kafka Streams' own {@code commit.interval.ms} when commits are paced: ten intervals, at least one second, but
     * never more than the producer's transaction timeout (Kafka Streams refuses to start with a longer interval; its
     * default for exactly-once is 10 s) nor less than the interval. It commits only what the pacer has not (a task
     * that never ticks, such as a restoring one), and it counts from the end of its own last commit, so it adds about
     * one commit per backstop to the paced ones.
     */
    static long pacedBackstopMs(Duration commitInterval, Map<String, String> kafka) {
        long interval = commitInterval.toMillis();
        // the key Kafka Streams checks the interval against
        String timeout = kafka.get(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG));
        long transactionTimeout = STREAMS_EOS_TRANSACTION_TIMEOUT_MS;
        if (timeout != null) {
            try {
                transactionTimeout = Long.parseLong(timeout.trim());
            } catch (NumberFormatException e) {
                // Kafka's own config check reports it when the producer is built
            }
        }
        return Math.max(interval, Math.min(Math.max(1_000, 10 * interval), transactionTimeout));
    }

    /** How often each task checks whether a paced commit is due (the pacing's precision): the poll timeout. */
    public Duration commitPacerTick() {
        return Duration.ofMillis(pollMs(commitInterval));
    }

    /** The stream threads' poll timeout for a commit interval: a tenth of it, 1 to 100 ms. */
    static long pollMs(Duration commitInterval) {
        return Math.max(1, Math.min(100, commitInterval.toMillis() / 10));
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, the registry user info a password
        return "AggregatorConfig[bootstrapServers=" + bootstrapServers + ", applicationId=" + applicationId
                + ", topicPrefix=" + topics.prefix() + ", schemaRegistryUrl=" + schemaRegistryUrl
                + ", basicAuthUserInfo=" + (basicAuthUserInfo == null ? "(none)" : "[hidden]") + ", stateDir="
                + stateDir + ", http=" + httpHost + ":" + httpPort + ", applicationServer=" + applicationServer
                + ", staleness=" + staleness + ", punctuateInterval=" + punctuateInterval + ", commitInterval="
                + commitInterval + ", commitOnChange=" + commitOnChange + ", commitPaced=" + commitPaced
                + ", partitions=" + partitions
                + ", replication=" + replication
                + ", trust=" + trust + ", unknownTargetHold=" + unknownTargetHold + ", historyLength=" + historyLength + ", groupRoutableMax=" + groupRoutableMax
                + ", rocksdbMemoryMb=" + rocksdbMemoryMb + ", http=" + http + ", registry client keys="
                + new TreeMap<>(registryClient).keySet() + ", kafka keys=" + new TreeMap<>(kafka).keySet() + "]";
    }
}
