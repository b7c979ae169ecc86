package io.healthmesh.aggregator;

import io.healthmesh.aggregator.domain.ResultTrust;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.UnknownTargetHold;
import io.healthmesh.aggregator.topology.RoutableList;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.Topics;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.GroupMembership;
import io.healthmesh.ops.Setting;
import io.healthmesh.status.StatusSettings;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The aggregator's settings, each declared once with its type, default and range: {@link AggregatorConfig#from}
 * reads them, {@link AggregatorConfig#SETTINGS} lists them for the docs test.
 */
final class AggregatorSettings {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern NOT_BLANK = Pattern.compile(".*\\S.*");
    private static final Pattern HOST_PORT =
            Pattern.compile("[A-Za-z0-9.\\-]+:[0-9]{1,5}|\\[[0-9A-Fa-f:.]+\\]:[0-9]{1,5}");

    static final Setting<String> APPLICATION_ID = Setting.matching("application.id",
            AggregatorConfig.DEFAULT_APPLICATION_ID, NAME, "1-200 of [A-Za-z0-9._-]",
            "Kafka Streams application id: consumer group, transactional id prefix and internal topic prefix.");
    static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
    static final Setting<String> STATE_DIR = Setting.matching("state.dir",
                    Path.of(System.getProperty("java.io.tmpdir"), AggregatorConfig.DEFAULT_APPLICATION_ID).toString(),
                    NOT_BLANK, "a directory",
                    "Directory of the local state stores (RocksDB); keep it across restarts to avoid a full restore.")
            .documentedAs("<java.io.tmpdir>/" + AggregatorConfig.DEFAULT_APPLICATION_ID, null);
    static final Setting<String> HTTP_HOST = Setting.matching("http.host", "0.0.0.0", NOT_BLANK,
            "an address of this host", "Bind address of /metrics, /healthz, /readyz and the query API.");
    static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(AggregatorConfig.DEFAULT_HTTP_PORT);
    static final Setting<String> APPLICATION_SERVER = Setting.matching("application.server", "",
            Pattern.compile("|" + HOST_PORT.pattern()), "empty or host:port",
            "host:port at which other instances reach this one's query API; empty = <http.host, or 127.0.0.1"
                    + " when it is 0.0.0.0>:<bound http port> (one instance).");
    static final Setting<Double> STALENESS_FACTOR = Setting.decimal("staleness.factor", StalenessRule.DEFAULT_FACTOR,
            1.0, 100.0, "A region (and a target) is stale after factor x interval + timeout without a result.");
    static final Setting<Long> STALENESS_MAX_BEHIND_MS = Setting.longInteger("staleness.max.behind.ms",
            StalenessRule.DEFAULT_MAX_BEHIND_MS, 0, StalenessRule.MAX_MAX_BEHIND_MS,
            "Silence is judged on how far the aggregator has read its input, not on the wall clock, while it"
                    + " catches up on a backlog that is at most this far behind; further behind, on the wall clock."
                    + " 0 = always the wall clock.");
    static final Setting<Long> PUNCTUATE_INTERVAL_MS = Setting.longInteger("punctuate.interval.ms",
            AggregatorConfig.DEFAULT_PUNCTUATE_INTERVAL_MS, 100, 60_000,
            "How often staleness is checked (wall-clock punctuation); adds at most this much to detection.");
    static final Setting<Long> COMMIT_INTERVAL_MS = Setting.longInteger("commit.interval.ms",
            AggregatorConfig.DEFAULT_COMMIT_INTERVAL_MS, 10, 60_000,
            "Kafka Streams commit interval (see commit.paced): with exactly-once, how long state events wait"
                    + " before read_committed consumers see them (see commit.on.change). 50 keeps detection"
                    + " within 100 ms of the formula; 100 (Kafka Streams' own) halves the transactions.");
    static final Setting<Boolean> COMMIT_PACED = Setting.bool("commit.paced", false,
            "Start each stream thread's commits commit.interval.ms apart, not an interval after the end of"
                    + " the previous commit (Kafka Streams' own count: interval + commit apart).");
    static final Setting<Boolean> COMMIT_ON_CHANGE = Setting.bool("commit.on.change", false,
            "Also commit as soon as a state event is written for an input younger than commit.interval.ms, at"
                    + " most once per commit.interval.ms per stream thread; false = commit on the interval only.");
    static final Setting<Integer> PARTITIONS = Setting.integer("partitions", Topics.DEFAULT_PARTITIONS, 1, 10_000,
            "Partitions of the topics created at start (targets and probe-results share it); existing topics"
                    + " are checked, never changed.");
    static final Setting<Integer> REPLICATION_FACTOR = Setting.integer("replication.factor",
            TopicReplication.PRODUCTION_FACTOR, 1, 32,
            "Replication of the topics created at start and of Kafka Streams' internal topics; from 3 on they get"
                    + " min.insync.replicas 2. 1 is refused unless replication.single.copy.allowed.");
    static final Setting<Boolean> REPLICATION_SINGLE_COPY_ALLOWED = Setting.bool(
            TopicReplication.SINGLE_COPY_SETTING, false,
            "A demo or dev setup on one broker: lets replication.factor 1 create topics (a single copy loses them"
                    + " with the broker); false refuses to start with replication.factor 1.");
    static final Setting<Long> MAX_FUTURE_SKEW_MS = Setting.longInteger("result.max.future.skew.ms",
            ResultTrust.DEFAULT_MAX_FUTURE_SKEW_MS, 0, 86_400_000L,
            "A result whose probe started more than this ahead of the aggregator's clock is rejected"
                    + " (FUTURE_RESULT), not applied.");
    static final Setting<Long> REGION_EVICTION_MS = Setting.longInteger("region.eviction.ms",
            ResultTrust.DEFAULT_REGION_EVICTION_MS, 1_000, 604_800_000L,
            "A region that stayed stale and silent this long is removed from its target's state.");
    static final Setting<Integer> HISTORY_LENGTH = Setting.integer("history.length",
            AggregatorConfig.DEFAULT_HISTORY_LENGTH, 0, 10_000,
            "Entries (results applied and status changes) kept per target for GET /targets/{id}/history;"
                    + " 0 keeps none (and writes nothing per result).");
    static final Setting<Long> UNKNOWN_TARGET_HOLD_MS = Setting.longInteger("unknown.target.hold.ms",
            UnknownTargetHold.DEFAULT_MAX_HOLD_MS, 0, UnknownTargetHold.MAX_MAX_HOLD_MS,
            "Longest a result for a target with no definition yet waits for it (read out of order with its"
                    + " definition) before it is rejected as UNKNOWN_TARGET; most are settled sooner. 0 = rejected"
                    + " at once.");
    static final Setting<Integer> UNKNOWN_TARGET_HOLD_MAX = Setting.integer("unknown.target.hold.max",
            UnknownTargetHold.DEFAULT_MAX_HELD_PER_TASK, 0, 10_000_000,
            "Most results one task holds for targets with no definition yet; a result beyond it is rejected at"
                    + " once.");
    static final Setting<Integer> GROUP_ROUTABLE_MAX = Setting.integer("group.routable.max",
            RoutableList.DEFAULT_MAX_IDS, 1, 10_000,
            "Ids at most in a GroupHealth event's routable list (also at most 192 KiB of ids); a longer list is"
                    + " cut, routableTruncated set, and paged by the query API.");
    static final Setting<Integer> ROCKSDB_MEMORY_MB = Setting.integer("rocksdb.memory.mb",
            AggregatorConfig.DEFAULT_ROCKSDB_MEMORY_MB, 8, 65_536,
            "Memory of every state store of this instance together (one RocksDB block cache and write buffer"
                    + " manager shared by all stores), MiB.");
    static final Setting<Boolean> STATUS_PAGE_ENABLED = Setting.bool("status.page.enabled", false,
            "Also serve the status page at /status/ and the per-group gauges from this instance (reads every"
                    + " partition of the state, group, targets and recent probe-results topics, and keeps every"
                    + " target in the heap); the status role serves them on its own.");

    /**
     * A restarted instance takes its tasks back at once (docs/operations/crash-recovery.md); the default is stable
     * across restarts and distinct between instances, which cannot share a state directory.
     */
    static final Setting<String> GROUP_INSTANCE_ID = GroupMembership.instanceIdSetting("<hostname>-<hash of state.dir>");

    /** Every key besides {@code kafka.*}, in documentation order. */
    static final List<Setting<?>> ALL = Stream.of(List.of(WorkerSettings.BOOTSTRAP_SERVERS,
                    WorkerSettings.SCHEMA_REGISTRY_URL, WorkerSettings.CREDENTIALS_SOURCE, WorkerSettings.USER_INFO,
                    APPLICATION_ID, TOPIC_PREFIX, STATE_DIR, HTTP_HOST, HTTP_PORT, APPLICATION_SERVER,
                    STALENESS_FACTOR, STALENESS_MAX_BEHIND_MS, PUNCTUATE_INTERVAL_MS, COMMIT_INTERVAL_MS, COMMIT_PACED, COMMIT_ON_CHANGE,
                    PARTITIONS, REPLICATION_FACTOR, REPLICATION_SINGLE_COPY_ALLOWED, MAX_FUTURE_SKEW_MS, REGION_EVICTION_MS, HISTORY_LENGTH,
                    UNKNOWN_TARGET_HOLD_MS, UNKNOWN_TARGET_HOLD_MAX,
                    GROUP_ROUTABLE_MAX, ROCKSDB_MEMORY_MB, STATUS_PAGE_ENABLED, GROUP_INSTANCE_ID), StatusSettings.SETTINGS,
                    HttpOptions.SETTINGS)
            .<Setting<?>>flatMap(List::stream).toList();

    /** The default static member id: this host's name and a hash of the state directory's absolute path. */
    static String defaultInstanceId(String stateDir) {
        String path = Path.of(stateDir).toAbsolutePath().normalize().toString();
        return GroupMembership.hostName() + "-" + String.format("%08x", path.hashCode());
    }

    private AggregatorSettings() {
    }
}
