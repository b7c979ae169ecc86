package io.healthmesh.xds;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.xds.map.ClusterNames;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The xds role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every range
 * checked, unknown keys refused (other than {@code kafka.*}, the registry client's {@code schema.registry.ssl.*} and
 * the HTTP servers' keys), the clusters file read. Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param serde the Avro serde's settings (registry URL and its credentials and TLS)
 * @param topics topic names
 * @param listener where the xDS server listens, and its bounds and TLS
 * @param clusterNames the cluster name of each group
 * @param zoneLabel the member label whose value is the locality's zone
 * @param connectTimeoutMs the clusters' connect timeout
 * @param httpHost bind address of the operations endpoint
 * @param httpPort its port
 * @param http the HTTP servers' options (ops token, separate ops listener, limits)
 * @param kafka Kafka client properties passed through
 */
public record XdsConfig(String bootstrapServers, Map<String, Object> serde, Topics topics, XdsListener listener,
                        ClusterNames clusterNames, String zoneLabel, long connectTimeoutMs, String httpHost,
                        int httpPort, HttpOptions http, Map<String, String> kafka) {

    public static final int DEFAULT_PORT = 18000;
    public static final int DEFAULT_HTTP_PORT = 8087;
    public static final int DEFAULT_MAX_STREAMS = 10_000;
    public static final int DEFAULT_MAX_STREAMS_PER_CONNECTION = 100;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._/-]{1,63}");

    /** Every key besides {@code kafka.*} and the registry client's, in documentation order. */
    public static final List<Setting> SETTINGS = Stream.concat(Stream.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://...", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO", "How the registry client authenticates."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]", "Prefix of every topic name."),
            new Setting("xds.host", "0.0.0.0", "an address of this host", "Bind address of the xDS (gRPC) server."),
            new Setting("xds.port", Integer.toString(DEFAULT_PORT), "0..65535 (0 = any free port)",
                    "Port of the xDS server."),
            new Setting("xds.ssl.certificate.location", null, "a PEM file", "TLS certificate chain of the xDS server."),
            new Setting("xds.ssl.key.location", null, "a PEM file", "TLS private key (PKCS#8) of the xDS server."),
            new Setting("xds.ssl.key.password", null, "a password", "Password of the PEM key, or of the key in the key store."),
            new Setting("xds.ssl.keystore.location", null, "a key store file", "TLS key store of the xDS server."),
            new Setting("xds.ssl.keystore.password", null, "a password", "Password of the key store."),
            new Setting("xds.ssl.keystore.type", "PKCS12", "PKCS12 or JKS", "Type of the key store."),
            new Setting("xds.ssl.client.ca.location", null, "a PEM file",
                    "When set, clients must present a certificate signed by one of these authorities (mutual TLS)."),
            new Setting("xds.max.streams", Integer.toString(DEFAULT_MAX_STREAMS), "1..1000000",
                    "Open xDS streams at most; one more is refused with RESOURCE_EXHAUSTED."),
            new Setting("xds.max.streams.per.connection", Integer.toString(DEFAULT_MAX_STREAMS_PER_CONNECTION),
                    "1..100000", "Concurrent streams at most on one client connection."),
            new Setting("xds.max.request.bytes", Integer.toString(DEFAULT_MAX_REQUEST_BYTES), "1024..67108864",
                    "Largest request a client may send."),
            new Setting("xds.keepalive.ms", "30000", "1000..3600000", "Interval of the server's pings on a quiet connection."),
            new Setting("xds.keepalive.timeout.ms", "10000", "1000..600000",
                    "How long a ping may go unanswered before the connection is closed."),
            new Setting("xds.idle.ms", "300000", "1000..86400000", "How long a connection without any stream is kept."),
            new Setting("clusters.file", null, "a properties file of group.id=cluster-name lines",
                    "Serves these groups under other cluster names; the others keep their group id."),
            new Setting("locality.zone.label", "zone", "1-63 of [A-Za-z0-9._/-]",
                    "Member label whose value becomes the endpoint's locality zone (the region is the target's)."),
            new Setting("cluster.connect.timeout.ms", "5000", "1..600000", "connect_timeout of the served clusters."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of /metrics, /healthz, /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz.")),
            HttpOptions.SETTINGS.stream().filter(s -> !s.key().startsWith("http.token"))).toList();

    public XdsConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        serde = Map.copyOf(serde);
        requireNonNull(topics, "topics");
        requireNonNull(listener, "listener");
        requireNonNull(clusterNames, "clusterNames");
        requireNonNull(zoneLabel, "zoneLabel");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(http, "http");
        kafka = Map.copyOf(kafka);
    }

    /**
     * Builds the config; every problem is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static XdsConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("xds", settings, SETTINGS).accepting(RegistryClients::isClientKey);
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]");
        String host = r.text("xds.host", "0.0.0.0");
        int port = r.integer("xds.port", DEFAULT_PORT, 0, 65_535);
        String keyStoreType = r.oneOf("xds.ssl.keystore.type", "PKCS12", "PKCS12", "JKS");
        int maxStreams = r.integer("xds.max.streams", DEFAULT_MAX_STREAMS, 1, 1_000_000);
        int perConnection = r.integer("xds.max.streams.per.connection", DEFAULT_MAX_STREAMS_PER_CONNECTION, 1, 100_000);
        int requestBytes = r.integer("xds.max.request.bytes", DEFAULT_MAX_REQUEST_BYTES, 1024, 64 * 1024 * 1024);
        long keepalive = r.longInteger("xds.keepalive.ms", 30_000, 1_000, 3_600_000);
        long keepaliveTimeout = r.longInteger("xds.keepalive.timeout.ms", 10_000, 1_000, 600_000);
        long idle = r.longInteger("xds.idle.ms", 300_000, 1_000, 86_400_000);
        String zoneLabel = r.matching("locality.zone.label", "zone", LABEL, "1-63 of [A-Za-z0-9._/-]");
        long connectTimeout = r.longInteger("cluster.connect.timeout.ms", 5_000, 1, 600_000);
        String httpHost = r.text("http.host", "0.0.0.0");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        XdsTls tls = null;
        try {
            tls = tls(r, keyStoreType);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        ClusterNames names = ClusterNames.identity();
        String clustersFile = r.optional("clusters.file");
        if (clustersFile != null) {
            try {
                names = ClusterNames.load(Path.of(clustersFile));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        HttpOptions http = HttpOptions.defaults();
        try {
            http = HttpOptions.from(settings);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        Map<String, String> kafka = r.kafka();
        r.finish();
        Map<String, Object> serde = new LinkedHashMap<>();
        serde.put("schema.registry.url", registry);
        if (authSource != null) {
            serde.put("basic.auth.credentials.source", authSource);
        }
        if (userInfo != null) {
            serde.put("basic.auth.user.info", userInfo);
        }
        serde.putAll(RegistryClients.clientKeys(settings));
        XdsListener listener = new XdsListener(host, port, tls, maxStreams, perConnection, requestBytes, keepalive,
                keepaliveTimeout, idle);
        return new XdsConfig(bootstrap, serde, new Topics(prefix), listener, names, zoneLabel, connectTimeout,
                httpHost, httpPort, http, kafka);
    }

    private static XdsTls tls(SettingsReader r, String keyStoreType) {
        String cert = r.optional("xds.ssl.certificate.location");
        String key = r.optional("xds.ssl.key.location");
        String keyStore = r.optional("xds.ssl.keystore.location");
        String clientCa = r.optional("xds.ssl.client.ca.location");
        if (cert == null && key == null && keyStore == null) {
            if (clientCa != null) {
                throw new IllegalArgumentException("xds.ssl.client.ca.location: set without a server identity "
                        + "(expected: xds.ssl.certificate.location and xds.ssl.key.location, or xds.ssl.keystore.location)");
            }
            return null;
        }
        return new XdsTls(cert == null ? null : Path.of(cert), key == null ? null : Path.of(key),
                r.optional("xds.ssl.key.password"), keyStore == null ? null : Path.of(keyStore),
                r.optional("xds.ssl.keystore.password"), keyStoreType == null ? "PKCS12" : keyStoreType,
                clientCa == null ? null : Path.of(clientCa));
    }

    /** The Kafka settings of the follower: the pass-through, then the bootstrap servers. */
    public Map<String, String> followerKafka() {
        Map<String, String> props = new TreeMap<>(kafka);
        props.put("bootstrap.servers", bootstrapServers);
        return props;
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, the serde settings a registry password
        return "XdsConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl="
                + io.healthmesh.core.secret.Redact.userInfo(String.valueOf(serde.get("schema.registry.url")))
                + ", topicPrefix=" + topics.prefix() + ", xds=" + listener.host() + ":" + listener.port()
                + ", tls=" + listener.tls() + ", clusters mapped=" + clusterNames.size() + ", zoneLabel=" + zoneLabel
                + ", http=" + httpHost + ":" + httpPort + ", " + http + ", kafka keys=" + kafka.keySet() + "]";
    }
}
