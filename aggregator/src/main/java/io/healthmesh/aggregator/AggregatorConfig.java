package io.healthmesh.aggregator;

import io.healthmesh.aggregator.domain.ResultTrust;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.topology.BoundedRocksDbMemory;
import io.healthmesh.aggregator.topology.RecordSafeHandlers;
import io.healthmesh.aggregator.topology.RoutableList;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.Settings;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.status.StatusSettings;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

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
                               short replicationFactor, Map<String, String> kafka, ResultTrust trust,
                               int historyLength, Map<String, String> registryClient, HttpOptions http,
                               boolean statusPage, StatusSettings status, int groupRoutableMax, int rocksdbMemoryMb,
                               boolean commitOnChange, boolean commitPaced) {

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

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");
    private static final Pattern NOT_BLANK = Pattern.compile(".*\\S.*");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.\\-]+:[0-9]{1,5}|\\[[0-9A-Fa-f:.]+\\]:[0-9]{1,5}");

    private static final String DEFAULT_STATE_DIR =
            Path.of(System.getProperty("java.io.tmpdir"), DEFAULT_APPLICATION_ID).toString();

    /** Every key besides {@code kafka.*}, with its default, range and doc (docs/CONFIGURATION.md lists them). */
    public static final List<Setting> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.concat(
            java.util.stream.Stream.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://... or mem://<scope>", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO",
                    "How the registry client authenticates (Confluent's key)."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("application.id", DEFAULT_APPLICATION_ID, "1-200 of [A-Za-z0-9._-]",
                    "Kafka Streams application id: consumer group, transactional id prefix and internal topic prefix."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]",
                    "Prefix of every healthmesh topic name."),
            new Setting("state.dir", "<java.io.tmpdir>/" + DEFAULT_APPLICATION_ID, "a directory",
                    "Directory of the local state stores (RocksDB); keep it across restarts to avoid a full restore."),
            new Setting("http.host", "0.0.0.0", "an address of this host",
                    "Bind address of /metrics, /healthz, /readyz and the query API."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz and the query API."),
            new Setting("application.server", "", "empty or host:port",
                    "host:port at which other instances reach this one's query API; empty = <http.host, or 127.0.0.1"
                            + " when it is 0.0.0.0>:<bound http port> (one instance)."),
            new Setting("staleness.factor", Double.toString(StalenessRule.DEFAULT_FACTOR), "1.0..100.0",
                    "A region (and a target) is stale after factor x interval + timeout without a result."),
            new Setting("punctuate.interval.ms", Long.toString(DEFAULT_PUNCTUATE_INTERVAL_MS), "100..60000",
                    "How often staleness is checked (wall-clock punctuation); adds at most this much to detection."),
            new Setting("commit.interval.ms", Long.toString(DEFAULT_COMMIT_INTERVAL_MS), "10..60000",
                    "Kafka Streams commit interval (see commit.paced): with exactly-once, how long state events wait"
                            + " before read_committed consumers see them (see commit.on.change). 50 keeps detection"
                            + " within 100 ms of the formula; 100 (Kafka Streams' own) halves the transactions."),
            new Setting("commit.paced", "false", "true or false",
                    "Start each stream thread's commits commit.interval.ms apart, not an interval after the end of"
                            + " the previous commit (Kafka Streams' own count: interval + commit apart)."),
            new Setting("commit.on.change", "false", "true or false",
                    "Also commit as soon as a state event is written for an input younger than commit.interval.ms, at"
                            + " most once per commit.interval.ms per stream thread; false = commit on the interval only."),
            new Setting("partitions", Integer.toString(Topics.DEFAULT_PARTITIONS), "1..10000",
                    "Partitions of the topics created at start (targets and probe-results share it); existing topics"
                            + " are checked, never changed."),
            new Setting("replication.factor", "1", "1..32",
                    "Replication of the topics created at start and of Kafka Streams' internal topics."),
            new Setting("result.max.future.skew.ms", Long.toString(ResultTrust.DEFAULT_MAX_FUTURE_SKEW_MS), "0..86400000",
                    "A result whose probe started more than this ahead of the aggregator's clock is rejected"
                            + " (FUTURE_RESULT), not applied."),
            new Setting("region.eviction.ms", Long.toString(ResultTrust.DEFAULT_REGION_EVICTION_MS), "1000..604800000",
                    "A region that stayed stale and silent this long is removed from its target's state."),
            new Setting("history.length", Integer.toString(DEFAULT_HISTORY_LENGTH), "0..10000",
                    "Entries (results applied and status changes) kept per target for GET /targets/{id}/history;"
                            + " 0 keeps none (and writes nothing per result)."),
            new Setting("group.routable.max", Integer.toString(RoutableList.DEFAULT_MAX_IDS), "1..10000",
                    "Ids at most in a GroupHealth event's routable list (also at most 192 KiB of ids); a longer list is"
                            + " cut, routableTruncated set, and paged by the query API."),
            new Setting("rocksdb.memory.mb", Integer.toString(DEFAULT_ROCKSDB_MEMORY_MB), "8..65536",
                    "Memory of every state store of this instance together (one RocksDB block cache and write buffer"
                            + " manager shared by all stores), MiB."),
            new Setting("status.page.enabled", "false", "true or false",
                    "Also serve the status page at /status/ and the per-group gauges from this instance (reads every"
                            + " partition of the state, group, targets and recent probe-results topics, and keeps every"
                            + " target in the heap); the status role serves them on its own.")),
            StatusSettings.SETTINGS.stream()),
            HttpOptions.SETTINGS.stream()).toList();

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
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String applicationId = r.matching("application.id", DEFAULT_APPLICATION_ID, NAME, "1-200 of [A-Za-z0-9._-]");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, PREFIX, "0-200 of [A-Za-z0-9._-]");
        String stateDir = r.matching("state.dir", DEFAULT_STATE_DIR, NOT_BLANK, "a directory");
        String httpHost = r.matching("http.host", "0.0.0.0", NOT_BLANK, "an address of this host");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        String server = r.text("application.server", "");
        if (!server.isEmpty() && !HOST_PORT.matcher(server).matches()) {
            r.problem("application.server", server, "empty or host:port");
        }
        double factor = r.decimal("staleness.factor", StalenessRule.DEFAULT_FACTOR, 1.0, 100.0);
        long punctuate = r.longInteger("punctuate.interval.ms", DEFAULT_PUNCTUATE_INTERVAL_MS, 100, 60_000);
        long commit = r.longInteger("commit.interval.ms", DEFAULT_COMMIT_INTERVAL_MS, 10, 60_000);
        boolean commitOnChange = r.bool("commit.on.change", false);
        boolean commitPaced = r.bool("commit.paced", false);
        int partitions = r.integer("partitions", Topics.DEFAULT_PARTITIONS, 1, 10_000);
        int replication = r.integer("replication.factor", 1, 1, 32);
        long maxSkew = r.longInteger("result.max.future.skew.ms", ResultTrust.DEFAULT_MAX_FUTURE_SKEW_MS, 0, 86_400_000L);
        long eviction = r.longInteger("region.eviction.ms", ResultTrust.DEFAULT_REGION_EVICTION_MS, 1_000, 604_800_000L);
        int historyLength = r.integer("history.length", DEFAULT_HISTORY_LENGTH, 0, 10_000);
        int routableMax = r.integer("group.routable.max", RoutableList.DEFAULT_MAX_IDS, 1, 10_000);
        int rocksdbMemory = r.integer("rocksdb.memory.mb", DEFAULT_ROCKSDB_MEMORY_MB, 8, 65_536);
        boolean statusPage = r.bool("status.page.enabled", false);
        StatusSettings status = StatusSettings.read(r);
        Map<String, String> kafka = r.kafka();
        Map<String, String> registryClient = RegistryClients.clientKeys(settings);
        HttpOptions http = null;
        try {
            http = HttpOptions.from(settings);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        r.finish();
        return new AggregatorConfig(bootstrap, applicationId, new Topics(prefix), registry, authSource, userInfo,
                Path.of(stateDir), httpHost, httpPort, server.isEmpty() ? null : server, new StalenessRule(factor),
                Duration.ofMillis(punctuate), Duration.ofMillis(commit), partitions, (short) replication, kafka,
                new ResultTrust(maxSkew, eviction), historyLength, registryClient, http, statusPage, status, routableMax,
                rocksdbMemory, commitOnChange, commitPaced);
    }

    /** The serde settings (Confluent's keys) for every Avro serde of the topology. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> serde = new HashMap<>();
        serde.put("schema.registry.url", schemaRegistryUrl);
        if (basicAuthCredentialsSource != null) {
            serde.put("basic.auth.credentials.source", basicAuthCredentialsSource);
        }
        if (basicAuthUserInfo != null) {
            serde.put("basic.auth.user.info", basicAuthUserInfo);
        }
        serde.putAll(registryClient);
        return serde;
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
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(replicationFactor));
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
                + ", replicationFactor=" + replicationFactor
                + ", trust=" + trust + ", historyLength=" + historyLength + ", groupRoutableMax=" + groupRoutableMax
                + ", rocksdbMemoryMb=" + rocksdbMemoryMb + ", http=" + http + ", registry client keys="
                + new TreeMap<>(registryClient).keySet() + ", kafka keys=" + new TreeMap<>(kafka).keySet() + "]";
    }
}
