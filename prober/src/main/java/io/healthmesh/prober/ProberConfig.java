package io.healthmesh.prober;

import io.healthmesh.ops.Settings;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.schemas.Topics;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

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
 * @param resilience how the prober keeps its own trouble from voting against targets (INCONCLUSIVE, shedding, DNS)
 */
public record ProberConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                           String registryUserInfo, String region, String proberId, Topics topics,
                           String httpHost, int httpPort, int maxInFlight, double jitterFraction, int timerTickMs,
                           String userAgent, List<String> denyList, int bufferCapacity, int eventLoopThreads,
                           Map<String, String> kafka, ProberResilience resilience) {

    /** One setting: its key, default (null = required or absent), range and meaning. */
    public record Setting(String key, String defaultValue, String range, String doc) {
    }

    private static final Pattern REGION = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern PROBER_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");

    public static final String DEFAULT_REGION = "default";
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_MAX_IN_FLIGHT = 1_000;
    /** First starts spread over the whole interval: a (re)started prober does not probe all its targets at once. */
    public static final double DEFAULT_JITTER_FRACTION = 1.0;
    public static final int DEFAULT_TIMER_TICK_MS = 10;
    public static final int DEFAULT_BUFFER_CAPACITY = 10_000;

    /** Every key this role accepts besides {@code kafka.*}, in documentation order. */
    public static final List<Setting> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://... or mem://<scope>",
                    "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO",
                    "How the registry client authenticates (Confluent's key)."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("region", DEFAULT_REGION, "1-64 of [A-Za-z0-9._-]",
                    "Region this prober probes from; consumer group healthmesh-prober-<region>."),
            new Setting("prober.id", "<hostname>-<pid>", "1-128 of [A-Za-z0-9._:@-]",
                    "Id of this worker, stamped on every result."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]", "Prefix of every topic name."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of /metrics, /healthz, /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz."),
            new Setting("max.in.flight", Integer.toString(DEFAULT_MAX_IN_FLIGHT), "1..100000",
                    "Probes running at once; at the bound an L4 slot is skipped, an L7 probe waits (both counted)."),
            new Setting("jitter.fraction", Double.toString(DEFAULT_JITTER_FRACTION), "0..1",
                    "First start of a target is uniform in [0, fraction x interval]."),
            new Setting("timer.tick.ms", Integer.toString(DEFAULT_TIMER_TICK_MS), "1..1000",
                    "Tick of the timer wheel: the resolution of every planned start."),
            new Setting("user.agent", ProbeEngineConfig.DEFAULT_USER_AGENT, "1-200 printable ASCII characters",
                    "User-Agent of HTTP/HTTPS probes."),
            new Setting("deny.list", "169.254.0.0/16,fd00:ec2::/32", "comma-separated CIDRs, may be empty",
                    "Destinations never probed (BLOCKED_BY_POLICY), checked after DNS resolution."),
            new Setting("buffer.capacity", Integer.toString(DEFAULT_BUFFER_CAPACITY), "1..10000000",
                    "Results held while Kafka is unreachable; when full the oldest is dropped (counted). The"
                            + " producer holds at most min(1024, capacity) more, sent but not yet acknowledged."),
            new Setting("event.loop.threads", "<available processors>", "1..256",
                    "Threads of the probe engine's Netty event loop.")),
            ProberResilience.SETTINGS.stream()).toList();

    private static final Set<String> KEYS = Set.copyOf(SETTINGS.stream().map(Setting::key).toList());

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
    }

    /**
     * Builds the config from settings (e.g. {@link Settings#load}); every problem is reported at once.
     *
     * @throws IllegalArgumentException listing every unknown key and invalid value
     */
    public static ProberConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        Reader r = new Reader(settings);
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.optional("basic.auth.credentials.source");
        if (authSource != null && !authSource.equals("URL") && !authSource.equals("USER_INFO")) {
            r.problem("basic.auth.credentials.source", authSource, "URL or USER_INFO");
        }
        String userInfo = r.optional("basic.auth.user.info");
        String region = r.matching("region", DEFAULT_REGION, REGION, "1-64 of [A-Za-z0-9._-]");
        String proberId = r.matching("prober.id", null, PROBER_ID, "1-128 of [A-Za-z0-9._:@-]");
        if (proberId == null) {
            proberId = defaultProberId();
        }
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]");
        String httpHost = r.optional("http.host");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        int maxInFlight = r.integer("max.in.flight", DEFAULT_MAX_IN_FLIGHT, 1, 100_000);
        double jitter = r.fraction("jitter.fraction", DEFAULT_JITTER_FRACTION);
        int tick = r.integer("timer.tick.ms", DEFAULT_TIMER_TICK_MS, 1, 1_000);
        String userAgent = r.optional("user.agent");
        if (userAgent != null && (userAgent.isBlank() || userAgent.length() > 200
                || userAgent.chars().anyMatch(c -> c < 0x20 || c > 0x7e))) {
            r.problem("user.agent", userAgent, "1-200 printable ASCII characters");
        }
        String denyText = r.optional("deny.list");
        List<String> deny = denyText == null ? ProbeEngineConfig.DEFAULT_DENY_LIST
                : Arrays.stream(denyText.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        int capacity = r.integer("buffer.capacity", DEFAULT_BUFFER_CAPACITY, 1, 10_000_000);
        int loops = r.integer("event.loop.threads", Math.min(256, Runtime.getRuntime().availableProcessors()), 1, 256);
        ProberResilience resilience = ProberResilience.read(r);
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put(k.toString(), v.toString()));
        settings.keySet().stream()
                .filter(k -> !KEYS.contains(k) && !k.startsWith(Settings.KAFKA_PREFIX))
                .sorted()
                .forEach(k -> r.problems.add(k + ": unknown setting (expected: a key of docs/CONFIGURATION.md"
                        + " \"## Prober\", or kafka.<Kafka client property>)"));
        try {
            ProbeEngineConfig.defaults().withDenyList(deny);
        } catch (IllegalArgumentException e) {
            r.problems.add("deny.list: " + e.getMessage());
        }
        if (!r.problems.isEmpty()) {
            throw new IllegalArgumentException("invalid prober settings: " + String.join("; ", r.problems));
        }
        return new ProberConfig(bootstrap, registry, authSource, userInfo, region, proberId, new Topics(prefix),
                httpHost == null ? "0.0.0.0" : httpHost, httpPort, maxInFlight, jitter, tick,
                userAgent == null ? ProbeEngineConfig.DEFAULT_USER_AGENT : userAgent, deny, capacity, loops, kafka,
                resilience);
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
        Map<String, Object> serde = new LinkedHashMap<>();
        serde.put("schema.registry.url", schemaRegistryUrl);
        if (registryAuthSource != null) {
            serde.put("basic.auth.credentials.source", registryAuthSource);
        }
        if (registryUserInfo != null) {
            serde.put("basic.auth.user.info", registryUserInfo);
        }
        return serde;
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, the registry user info a password
        return "ProberConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + schemaRegistryUrl
                + ", region=" + region + ", proberId=" + proberId + ", topicPrefix=" + topics.prefix()
                + ", http=" + httpHost + ":" + httpPort + ", maxInFlight=" + maxInFlight
                + ", jitterFraction=" + jitterFraction + ", timerTickMs=" + timerTickMs + ", denyList=" + denyList
                + ", bufferCapacity=" + bufferCapacity + ", eventLoopThreads=" + eventLoopThreads
                + ", " + resilience + ", kafka keys=" + kafka.keySet() + "]";
    }

    private static String defaultProberId() {
        // containers set HOSTNAME; asking the resolver can take seconds where DNS is slow
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "unknown-host";
            }
        }
        String id = host.replaceAll("[^A-Za-z0-9._:@-]", "_") + "-" + ProcessHandle.current().pid();
        return id.length() <= 128 ? id : id.substring(id.length() - 128);
    }

    /** Reads settings and gathers every problem so that one error lists them all. */
    static final class Reader {
        private final Map<String, String> settings;
        private final List<String> problems = new ArrayList<>();

        Reader(Map<String, String> settings) {
            this.settings = settings;
        }

        String optional(String key) {
            String v = settings.get(key);
            return v == null ? null : v.trim();
        }

        String required(String key) {
            String v = optional(key);
            if (v == null || v.isEmpty()) {
                problems.add(key + ": missing (expected: a value, this setting is required)");
                return "";
            }
            return v;
        }

        String matching(String key, String defaultValue, Pattern pattern, String expected) {
            String v = optional(key);
            if (v == null) {
                return defaultValue;
            }
            if (!pattern.matcher(v).matches()) {
                problem(key, v, expected);
            }
            return v;
        }

        int integer(String key, int defaultValue, int min, int max) {
            return number(key, defaultValue, Integer::parseInt, v -> v >= min && v <= max, min + ".." + max);
        }

        double fraction(String key, double defaultValue) {
            return number(key, defaultValue, Double::parseDouble, v -> v >= 0 && v <= 1, "0..1");
        }

        private <T> T number(String key, T defaultValue, Function<String, T> parse,
                             Predicate<T> inRange, String expected) {
            String v = optional(key);
            if (v == null) {
                return defaultValue;
            }
            try {
                T parsed = parse.apply(v);
                if (inRange.test(parsed)) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // reported below with the expected range
            }
            problem(key, v, expected);
            return defaultValue;
        }

        List<String> problems() {
            return problems;
        }

        void problem(String key, String value, String expected) {
            problems.add(key + ": " + value + " (expected: " + expected + ")");
        }
    }
}
