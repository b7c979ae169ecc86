package io.healthmesh.xds;

import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;
import io.healthmesh.follow.StateSource;
import io.healthmesh.xds.map.ClusterNames;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The xds role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every range
 * checked, unknown keys refused (other than {@code kafka.*}, the registry client's {@code schema.registry.ssl.*} and
 * the HTTP servers' keys), the clusters file read. Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md.
 *
 * @param source where the state topics are read (brokers, registry, topic names, {@code kafka.*})
 * @param listener where the xDS server listens, and its bounds and TLS
 * @param clusterNames the cluster name of each group
 * @param zoneLabel the member label whose value is the locality's zone
 * @param connectTimeoutMs the clusters' connect timeout
 * @param httpHost bind address of the operations endpoint
 * @param httpPort its port
 * @param http the HTTP servers' options (ops token, separate ops listener, limits)
 */
public record XdsConfig(StateSource source, XdsListener listener, ClusterNames clusterNames, String zoneLabel,
                        long connectTimeoutMs, String httpHost, int httpPort, HttpOptions http) {

    public static final int DEFAULT_PORT = 18000;
    public static final int DEFAULT_HTTP_PORT = 8087;
    public static final int DEFAULT_MAX_STREAMS = 10_000;
    public static final int DEFAULT_MAX_STREAMS_PER_CONNECTION = 100;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._/-]{1,63}");

    private static final Setting<String> XDS_HOST = Setting.text("xds.host", "0.0.0.0", "an address of this host",
            "Bind address of the xDS (gRPC) server.");
    private static final Setting<Integer> XDS_PORT = Setting.integer("xds.port", DEFAULT_PORT, 0, 65_535,
            "Port of the xDS server.").noting("0 = any free port");
    private static final Setting<String> CERTIFICATE = Setting.text("xds.ssl.certificate.location", null,
            "a PEM file", "TLS certificate chain of the xDS server.");
    private static final Setting<String> KEY = Setting.text("xds.ssl.key.location", null, "a PEM file",
            "TLS private key (PKCS#8) of the xDS server.");
    private static final Setting<String> KEY_PASSWORD = Setting.text("xds.ssl.key.password", null, "a password",
            "Password of the PEM key, or of the key in the key store.");
    private static final Setting<String> KEY_STORE = Setting.text("xds.ssl.keystore.location", null,
            "a key store file", "TLS key store of the xDS server.");
    private static final Setting<String> KEY_STORE_PASSWORD = Setting.text("xds.ssl.keystore.password", null,
            "a password", "Password of the key store.");
    private static final Setting<String> KEY_STORE_TYPE = Setting.oneOf("xds.ssl.keystore.type", "PKCS12",
            List.of("PKCS12", "JKS"), "Type of the key store.");
    private static final Setting<String> CLIENT_CA = Setting.text("xds.ssl.client.ca.location", null, "a PEM file",
            "When set, clients must present a certificate signed by one of these authorities (mutual TLS).");
    private static final Setting<Integer> MAX_STREAMS = Setting.integer("xds.max.streams", DEFAULT_MAX_STREAMS, 1,
            1_000_000, "Open xDS streams at most; one more is refused with RESOURCE_EXHAUSTED.");
    private static final Setting<Integer> MAX_STREAMS_PER_CONNECTION = Setting.integer(
            "xds.max.streams.per.connection", DEFAULT_MAX_STREAMS_PER_CONNECTION, 1, 100_000,
            "Concurrent streams at most on one client connection.");
    private static final Setting<Integer> MAX_REQUEST_BYTES = Setting.integer("xds.max.request.bytes",
            DEFAULT_MAX_REQUEST_BYTES, 1024, 64 * 1024 * 1024, "Largest request a client may send.");
    private static final Setting<Long> KEEPALIVE_MS = Setting.longInteger("xds.keepalive.ms", 30_000, 1_000,
            3_600_000, "Interval of the server's pings on a quiet connection.");
    private static final Setting<Long> KEEPALIVE_TIMEOUT_MS = Setting.longInteger("xds.keepalive.timeout.ms", 10_000,
            1_000, 600_000, "How long a ping may go unanswered before the connection is closed.");
    private static final Setting<Long> IDLE_MS = Setting.longInteger("xds.idle.ms", 300_000, 1_000, 86_400_000,
            "How long a connection without any stream is kept.");
    private static final Setting<String> CLUSTERS_FILE = Setting.text("clusters.file", null,
            "a properties file of group.id=cluster-name lines",
            "Serves these groups under other cluster names; the others keep their group id.");
    private static final Setting<String> ZONE_LABEL = Setting.matching("locality.zone.label", "zone", LABEL,
            "1-63 of [A-Za-z0-9._/-]",
            "Member label whose value becomes the endpoint's locality zone (the region is the target's).");
    private static final Setting<Long> CONNECT_TIMEOUT_MS = Setting.longInteger("cluster.connect.timeout.ms", 5_000,
            1, 600_000, "connect_timeout of the served clusters.");
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);

    /** Every key besides {@code kafka.*} and the registry client's, in documentation order. */
    public static final List<Setting<?>> SETTINGS = Stream.concat(Stream.concat(StateSource.SETTINGS.stream(),
            Stream.<Setting<?>>of(XDS_HOST, XDS_PORT, CERTIFICATE, KEY, KEY_PASSWORD, KEY_STORE,
            KEY_STORE_PASSWORD, KEY_STORE_TYPE, CLIENT_CA, MAX_STREAMS, MAX_STREAMS_PER_CONNECTION, MAX_REQUEST_BYTES,
            KEEPALIVE_MS, KEEPALIVE_TIMEOUT_MS, IDLE_MS, CLUSTERS_FILE, ZONE_LABEL, CONNECT_TIMEOUT_MS,
            WorkerSettings.HTTP_HOST, HTTP_PORT)),
            HttpOptions.SETTINGS.stream().filter(s -> !s.key().startsWith("http.token"))).toList();

    public XdsConfig {
        requireNonNull(source, "source");
        requireNonNull(listener, "listener");
        requireNonNull(clusterNames, "clusterNames");
        requireNonNull(zoneLabel, "zoneLabel");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(http, "http");
    }

    /**
     * Builds the config; every problem is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static XdsConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = StateSource.reader("xds", settings, SETTINGS);
        StateSource source = StateSource.read(r, settings);
        String host = r.get(XDS_HOST);
        int port = r.get(XDS_PORT);
        String keyStoreType = r.get(KEY_STORE_TYPE);
        int maxStreams = r.get(MAX_STREAMS);
        int perConnection = r.get(MAX_STREAMS_PER_CONNECTION);
        int requestBytes = r.get(MAX_REQUEST_BYTES);
        long keepalive = r.get(KEEPALIVE_MS);
        long keepaliveTimeout = r.get(KEEPALIVE_TIMEOUT_MS);
        long idle = r.get(IDLE_MS);
        String zoneLabel = r.get(ZONE_LABEL);
        long connectTimeout = r.get(CONNECT_TIMEOUT_MS);
        String httpHost = r.get(WorkerSettings.HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        XdsTls tls = null;
        try {
            tls = tls(r, keyStoreType);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        ClusterNames names = ClusterNames.identity();
        String clustersFile = r.get(CLUSTERS_FILE);
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
        r.finish();
        XdsListener listener = new XdsListener(host, port, tls, maxStreams, perConnection, requestBytes, keepalive,
                keepaliveTimeout, idle);
        return new XdsConfig(source, listener, names, zoneLabel, connectTimeout, httpHost, httpPort, http);
    }

    private static XdsTls tls(SettingsReader r, String keyStoreType) {
        String cert = r.get(CERTIFICATE);
        String key = r.get(KEY);
        String keyStore = r.get(KEY_STORE);
        String clientCa = r.get(CLIENT_CA);
        if (cert == null && key == null && keyStore == null) {
            if (clientCa != null) {
                throw new IllegalArgumentException("xds.ssl.client.ca.location: set without a server identity "
                        + "(expected: xds.ssl.certificate.location and xds.ssl.key.location, or xds.ssl.keystore.location)");
            }
            return null;
        }
        return new XdsTls(cert == null ? null : Path.of(cert), key == null ? null : Path.of(key),
                r.get(KEY_PASSWORD), keyStore == null ? null : Path.of(keyStore),
                r.get(KEY_STORE_PASSWORD), keyStoreType,
                clientCa == null ? null : Path.of(clientCa));
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, the serde settings a registry password
        return "XdsConfig[" + source + ", xds=" + listener.host() + ":" + listener.port()
                + ", tls=" + listener.tls() + ", clusters mapped=" + clusterNames.size() + ", zoneLabel=" + zoneLabel
                + ", http=" + httpHost + ":" + httpPort + ", " + http + "]";
    }
}
