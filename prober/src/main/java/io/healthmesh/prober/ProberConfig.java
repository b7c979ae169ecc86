package io.healthmesh.prober;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.ops.BrokerLossTimeouts;
import io.healthmesh.ops.GroupMembership;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.Settings;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.transport.ProbeTransport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.healthmesh.ops.WorkerSettings.BOOTSTRAP_SERVERS;
import static io.healthmesh.ops.WorkerSettings.CREDENTIALS_SOURCE;
import static io.healthmesh.ops.WorkerSettings.HTTP_HOST;
import static io.healthmesh.ops.WorkerSettings.SCHEMA_REGISTRY_URL;
import static io.healthmesh.ops.WorkerSettings.USER_INFO;
import static java.util.Objects.requireNonNull;

/**
 * The prober worker's settings, immutable, built by one validating factory {@link #from(Map)} that applies
 * the defaults, checks every range and rejects unknown keys (other than {@code kafka.*}, passed through to
 * the Kafka clients with the prefix removed: security, SASL, SSL, timeouts). Every key, default and range is
 * in {@link #SETTINGS} and in docs/CONFIGURATION.md.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param schemaRegistryUrl schema registry URL ({@code mem://<scope>} for an in-process registry)
 * @param registryAuthSource Confluent's {@code basic.auth.credentials.source}, or {@code null}
 * @param registryUserInfo Confluent's {@code basic.auth.user.info}, or {@code null}
 * @param region the region this prober probes from; its consumer group is {@code healthmesh-prober-<region>}
 * @param proberId this worker's id, stamped on every result
 * @param topics topic names (prefix applied)
 * @param httpHost address the operations endpoint binds
 * @param httpPort port of the operations endpoint (0 = any free port)
 * @param maxInFlight probes running at once
 * @param jitterFraction share of the interval over which first starts spread
 * @param timerTickMs tick of the timer wheel
 * @param userAgent {@code User-Agent} of HTTP probes
 * @param denyList destination CIDRs never probed
 * @param bufferCapacity results held while Kafka is away before the oldest are dropped
 * @param eventLoopThreads threads of the probe engine's event loop
 * @param kafka Kafka client properties passed through (keys without the {@code kafka.} prefix)
 * @param probeSource the probes' source address and L4 marker (docs/CONFIGURATION.md, for allow-listing)
 * @param resilience how the prober keeps its own trouble from voting against targets (INCONCLUSIVE, shedding, DNS)
 * @param allowList destination CIDRs opened inside the deny list (the most specific block decides)
 * @param deniedEndpoints other endpoints of the cluster never probed ({@code host:port}), besides the bootstrap
 *                        servers, the registry and this worker's own port, which are always denied
 * @param registryClient the registry client's TLS and plain-http settings ({@code schema.registry.ssl.*},
 *     {@code schema.registry.basic.auth.allow.insecure.http}), passed to the serdes as they are
 * @param http the HTTP servers' token, separate ops listener and limits
 * @param transport the probe engine's Netty transport ({@code auto}: epoll, else NIO; io_uring when forced)
 * @param publish how the producer batches and compresses the results ({@code publish.*})
 * @param tls the trust bundles and client keys that HTTPS and GRPC definitions name by id ({@code tls.*})
 * @param denyBrokerHosts whether every port of each broker's and controller's host is denied, not only the ports
 *     the cluster's metadata names ({@code deny.broker.hosts})
 */
public record ProberConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                           String registryUserInfo, String region, String proberId, Topics topics,
                           String httpHost, int httpPort, int maxInFlight, double jitterFraction, int timerTickMs,
                           String userAgent, List<String> denyList, int bufferCapacity, int eventLoopThreads,
                           Map<String, String> kafka, ProbeSource probeSource, ProberResilience resilience,
                           List<String> allowList, List<String> deniedEndpoints, Map<String, String> registryClient,
                           HttpOptions http, ProbeTransport transport, PublishTuning publish, ProberTls tls,
                           boolean denyBrokerHosts) {

    private static final Pattern REGION = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern PROBER_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    public static final String DEFAULT_REGION = "default";
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_MAX_IN_FLIGHT = 1_000;
    /** First starts spread over the whole interval: a (re)started prober does not probe all its targets at once. */
    public static final double DEFAULT_JITTER_FRACTION = 1.0;
    public static final int DEFAULT_TIMER_TICK_MS = 10;
    public static final int DEFAULT_BUFFER_CAPACITY = 10_000;

    static final Setting<String> REGION_SETTING = Setting.matching("region", DEFAULT_REGION, REGION,
            "1-64 of [A-Za-z0-9._-]", "Region this prober probes from; consumer group healthmesh-prober-<region>.");
    static final Setting<String> PROBER_ID_SETTING = Setting.matching("prober.id", null, PROBER_ID,
                    "1-128 of [A-Za-z0-9._:@-]", "Id of this worker, stamped on every result.")
            .documentedAs("<hostname>-<pid>", null);
    /** A restarted prober takes its partitions back at once (docs/operations/crash-recovery.md). */
    static final Setting<String> GROUP_INSTANCE_ID = GroupMembership.instanceIdSetting("<prober.id if set, else hostname>");
    static final Setting<String> TOPIC_PREFIX_SETTING = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
    static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);
    static final Setting<Integer> MAX_IN_FLIGHT = Setting.integer("max.in.flight", DEFAULT_MAX_IN_FLIGHT, 1, 100_000,
            "Probes running at once; at the bound an L4 slot is skipped, an L7 probe waits (both counted).");
    static final Setting<Double> JITTER_FRACTION = Setting.fraction("jitter.fraction", DEFAULT_JITTER_FRACTION,
            "First start of a target is uniform in [0, fraction x interval].");
    static final Setting<Integer> TIMER_TICK_MS = Setting.integer("timer.tick.ms", DEFAULT_TIMER_TICK_MS, 1, 1_000,
            "Tick of the timer wheel: the resolution of every planned start (a fixed-delay start lands on"
                    + " the tick nearest its plan, a fixed-rate one at the end of its tick).");
    static final Setting<String> USER_AGENT = Setting.text("user.agent", ProbeEngineConfig.DEFAULT_USER_AGENT,
                    "1-200 printable ASCII characters", "User-Agent of HTTP/HTTPS probes.")
            .and(ua -> !ua.isBlank() && ua.length() <= 200 && ua.chars().allMatch(c -> c >= 0x20 && c <= 0x7e));
    static final Setting<String> DENY_LIST = Setting.text("deny.list",
            String.join(",", ProbeEngineConfig.DEFAULT_DENY_LIST), "comma-separated CIDRs, may be empty",
            "Destinations never probed (BLOCKED_BY_POLICY, no packet sent), checked on the host as written, after"
                    + " DNS resolution and on every redirect hop, IPv4 addresses embedded in IPv6 ones included."
                    + " Replaces the default when set.");
    static final Setting<String> ALLOW_LIST = Setting.text("allow.list", "", "comma-separated CIDRs, may be empty",
            "Destinations probed although the deny list holds them, such as 127.0.0.0/8 for backends on the"
                    + " prober's own host: the most specific block of the two lists decides.");
    static final Setting<String> DENY_ENDPOINTS = Setting.text("deny.endpoints", "",
            "comma-separated host:port ([IPv6]:port)",
            "Other endpoints of the cluster never probed, whatever allow.list says (the aggregators' query API,"
                    + " other brokers). The bootstrap servers, the registry and this worker's http port are"
                    + " always denied.");
    static final Setting<Boolean> DENY_BROKER_HOSTS = Setting.bool("deny.broker.hosts", true,
            "Deny every port of each broker's and controller's host that the cluster's metadata names, not only its"
                    + " listed listeners; turn off only where targets share a host with a broker. An allow.list block"
                    + " that opens a denied range (the demo's loopback) still opens it, except the listed ports.");
    static final Setting<Integer> BUFFER_CAPACITY = Setting.integer("buffer.capacity", DEFAULT_BUFFER_CAPACITY, 1,
            10_000_000, "Results held while Kafka is unreachable; when full the oldest is dropped (counted). The"
                    + " producer holds at most min(1024, capacity) more, sent but not yet acknowledged.");
    static final Setting<Integer> EVENT_LOOP_THREADS = Setting.integer("event.loop.threads", 1, 1, 256,
            "Threads of the probe engine's Netty event loop.").documentedAs("<available processors>", null);
    static final Setting<String> PROBE_SOURCE_ADDRESS = Setting.text("probe.source.address", null,
            "an IP address of this host",
            "Source address of TCP, UDP and HTTP(S) probes, so that backends can allow-list it (000, 002).");
    static final Setting<String> L4_MARKER = Setting.text("l4.marker", "", "0-64 printable ASCII characters",
            "Bytes a connect-only TCP probe writes and a UDP port-mode probe sends, e.g. HEALTH CHECK (000).");
    static final Setting<String> TRANSPORT = Setting.text("transport", ProbeTransport.AUTO.settingName(),
            ProbeTransport.names(), "Netty transport of TCP, UDP and HTTP(S) probes: auto takes epoll, else NIO"
                    + " (io_uring only when forced); a forced one that this host cannot run fails the start with its"
                    + " cause. ICMP keeps its own socket.");

    /** Every key this role accepts besides {@code kafka.*}, in documentation order. */
    public static final List<Setting<?>> SETTINGS = Stream.of(List.of(BOOTSTRAP_SERVERS, SCHEMA_REGISTRY_URL,
                    CREDENTIALS_SOURCE, USER_INFO, REGION_SETTING, PROBER_ID_SETTING, TOPIC_PREFIX_SETTING, HTTP_HOST,
                    HTTP_PORT, MAX_IN_FLIGHT, JITTER_FRACTION, TIMER_TICK_MS, USER_AGENT, DENY_LIST, ALLOW_LIST,
                    DENY_ENDPOINTS, DENY_BROKER_HOSTS, BUFFER_CAPACITY, EVENT_LOOP_THREADS, PROBE_SOURCE_ADDRESS,
                    L4_MARKER, TRANSPORT),
            List.of(GROUP_INSTANCE_ID), ProberResilience.SETTINGS, PublishTuning.SETTINGS, HttpOptions.SETTINGS,
            ProberTls.SETTINGS)
            .<Setting<?>>flatMap(List::stream).toList();

    public ProberConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(region, "region");
        requireNonNull(proberId, "proberId");
        requireNonNull(topics, "topics");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(userAgent, "userAgent");
        requireNonNull(resilience, "resilience");
        denyList = List.copyOf(denyList);
        kafka = Map.copyOf(kafka);
        probeSource = probeSource == null ? ProbeSource.NONE : probeSource;
        allowList = List.copyOf(allowList);
        deniedEndpoints = List.copyOf(deniedEndpoints);
        registryClient = Map.copyOf(registryClient);
        requireNonNull(http, "http");
        transport = transport == null ? ProbeTransport.AUTO : transport;
        publish = publish == null ? PublishTuning.defaults() : publish;
        tls = tls == null ? ProberTls.NONE : tls;
    }

    /** A config without a probe source address or L4 marker, with the default resilience and egress settings. */
    public ProberConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                        String registryUserInfo, String region, String proberId, Topics topics,
                        String httpHost, int httpPort, int maxInFlight, double jitterFraction, int timerTickMs,
                        String userAgent, List<String> denyList, int bufferCapacity, int eventLoopThreads,
                        Map<String, String> kafka) {
        this(bootstrapServers, schemaRegistryUrl, registryAuthSource, registryUserInfo, region, proberId, topics,
                httpHost, httpPort, maxInFlight, jitterFraction, timerTickMs, userAgent, denyList, bufferCapacity,
                eventLoopThreads, kafka, ProbeSource.NONE, ProberResilience.defaults(), List.of(), List.of(), Map.of(),
                HttpOptions.defaults(), ProbeTransport.AUTO, PublishTuning.defaults(), ProberTls.NONE, true);
    }

    /**
     * Builds the config from settings (e.g. {@link Settings#load}); every problem is reported at once.
     *
     * @throws IllegalArgumentException listing every unknown key and invalid value
     */
    public static ProberConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("prober", settings, SETTINGS)
                .accepting(RegistryClients::isClientKey);
        String bootstrap = r.get(BOOTSTRAP_SERVERS);
        String registry = r.get(SCHEMA_REGISTRY_URL);
        String authSource = r.get(CREDENTIALS_SOURCE);
        String userInfo = r.get(USER_INFO);
        String region = r.get(REGION_SETTING);
        String proberId = r.get(PROBER_ID_SETTING);
        // a stable member id: the prober id when it is given (stable by choice), else the host's name (the pid is not)
        String instanceId = r.get(GROUP_INSTANCE_ID, proberId != null ? proberId : GroupMembership.hostName());
        if (proberId == null) {
            proberId = defaultProberId();
        }
        String prefix = r.get(TOPIC_PREFIX_SETTING);
        String httpHost = r.get(HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        int maxInFlight = r.get(MAX_IN_FLIGHT);
        double jitter = r.get(JITTER_FRACTION);
        int tick = r.get(TIMER_TICK_MS);
        String userAgent = r.get(USER_AGENT);
        String denyText = r.text(DENY_LIST);
        List<String> deny = denyText == null ? ProbeEngineConfig.DEFAULT_DENY_LIST : list(denyText);
        List<String> allow = list(r.get(ALLOW_LIST));
        List<String> endpoints = list(r.get(DENY_ENDPOINTS));
        boolean denyBrokerHosts = r.get(DENY_BROKER_HOSTS);
        int capacity = r.get(BUFFER_CAPACITY);
        int loops = r.get(EVENT_LOOP_THREADS, Math.min(256, Runtime.getRuntime().availableProcessors()));
        List<String> sourceProblems = new ArrayList<>();
        ProbeSource source = ProbeSources.read(r.text(PROBE_SOURCE_ADDRESS), r.text(L4_MARKER), sourceProblems);
        sourceProblems.forEach(r::problem);
        ProberResilience resilience = ProberResilience.read(r);
        ProbeTransport transport = ProbeTransport.AUTO;
        String transportText = r.text(TRANSPORT);
        if (transportText != null) {
            try {
                transport = ProbeTransport.parse(transportText);
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        // a lost broker costs seconds, not minutes (BrokerLossTimeouts); the pass-through wins
        Map<String, String> kafka = BrokerLossTimeouts.withDefaults(GroupMembership.withDefaults(r.kafka(), instanceId));
        PublishTuning publish = PublishTuning.read(r);
        Map<String, String> registryClient = RegistryClients.clientKeys(settings);
        HttpOptions http = HttpOptions.read(r);
        ProberTls tls = ProberTls.read(r);
        try {
            ProbeEngineConfig.defaults().withDenyList(deny);
        } catch (IllegalArgumentException e) {
            r.problem("deny.list: " + e.getMessage());
        }
        try {
            ProbeEngineConfig.defaults().withAllowList(allow);
        } catch (IllegalArgumentException e) {
            r.problem("allow.list: " + e.getMessage());
        }
        try {
            ProbeEngineConfig.defaults().withDeniedEndpoints(endpoints);
        } catch (IllegalArgumentException e) {
            r.problem("deny.endpoints: " + e.getMessage());
        }
        r.finish();
        return new ProberConfig(bootstrap, registry, authSource, userInfo, region, proberId, new Topics(prefix),
                httpHost, httpPort, maxInFlight, jitter, tick, userAgent, deny, capacity, loops, kafka,
                source, resilience, allow, endpoints, registryClient, http, transport, publish, tls,
                denyBrokerHosts);
    }

    /** The consumer group of this prober's region: every region probes every target. */
    public String groupId() {
        return "healthmesh-prober-" + region;
    }

    /** Who rejects records, for the rejected topic's headers: {@code prober/<region>/<id>}. */
    public String rejectedBy() {
        return "prober/" + region + "/" + proberId;
    }

    /** The serde config of the Avro values (Confluent's keys). */
    public Map<String, Object> serdeConfig() {
        return RegistryClients.serdeConfig(schemaRegistryUrl, registryAuthSource, registryUserInfo, registryClient);
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, the registry user info a password, the
        // registry URL user info
        return "ProberConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + Redact.userInfo(schemaRegistryUrl)
                + ", region=" + region + ", proberId=" + proberId + ", topicPrefix=" + topics.prefix()
                + ", http=" + httpHost + ":" + httpPort + ", maxInFlight=" + maxInFlight
                + ", jitterFraction=" + jitterFraction + ", timerTickMs=" + timerTickMs + ", denyList=" + denyList + ", allowList=" + allowList
                + ", deniedEndpoints=" + deniedEndpoints
                + ", bufferCapacity=" + bufferCapacity + ", eventLoopThreads=" + eventLoopThreads
                + ", " + resilience + ", " + publish + ", " + tls + ", kafka keys=" + kafka.keySet() + "]";
    }

    private static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String defaultProberId() {
        String id = GroupMembership.hostName() + "-" + ProcessHandle.current().pid();
        return id.length() <= 128 ? id : id.substring(id.length() - 128);
    }
}
