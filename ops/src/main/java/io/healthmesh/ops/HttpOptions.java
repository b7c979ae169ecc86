package io.healthmesh.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A worker's HTTP hardening settings, shared by the prober and the aggregator: an optional separate listener for
 * the ops endpoints ({@code ops.host}, {@code ops.port}), optional bearer tokens ({@code http.token} for the API
 * routes such as the aggregator's query API, {@code ops.token} for {@code /metrics} and {@code /readyz}; each may
 * instead be read from a file, {@code http.token.file}, {@code ops.token.file}), and the {@link HttpLimits} of
 * every server ({@code http.max.connections}, {@code http.idle.timeout.ms}, {@code http.request.timeout.ms},
 * {@code http.threads}, {@code http.queue}). Tokens are never printed.
 *
 * @param opsHost bind address of the separate ops listener, or null for {@code http.host}
 * @param opsPort port of the separate ops listener (0 = any free port), or -1: the ops endpoints share the API's listener
 * @param apiToken bearer token the API routes require, or null
 * @param opsToken bearer token {@code /metrics} and {@code /readyz} require, or null ({@code /healthz} never needs one)
 * @param limits bounds of every HTTP server of the worker
 */
public record HttpOptions(String opsHost, int opsPort, String apiToken, String opsToken, HttpLimits limits) {

    static final Setting<String> HTTP_TOKEN = Setting.text("http.token", null, "16-4096 printable ASCII characters",
            "Bearer token the query API (and the status page) require.");
    static final Setting<String> HTTP_TOKEN_FILE = Setting.text("http.token.file", null, "a file",
            "The same token, read from a file.");
    static final Setting<String> OPS_TOKEN = Setting.text("ops.token", null, "16-4096 printable ASCII characters",
            "Bearer token /metrics and /readyz require (/healthz never needs one).");
    static final Setting<String> OPS_TOKEN_FILE = Setting.text("ops.token.file", null, "a file",
            "The same token, read from a file.");
    static final Setting<String> OPS_HOST = Setting.text("ops.host", null, "an address of this host",
            "Bind address of the separate ops listener (http.host when unset).");
    static final Setting<Integer> OPS_PORT = Setting.of("ops.port", null, "0..65535", Integer::valueOf,
            v -> v >= 0 && v <= 65_535, "When set, /metrics, /healthz and /readyz get a listener of their own on this port.");

    /** The settings {@link #from} reads, declared once for every worker role that reads them. */
    public static final List<Setting<?>> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            HTTP_TOKEN, HTTP_TOKEN_FILE, OPS_TOKEN, OPS_TOKEN_FILE, OPS_HOST, OPS_PORT),
            HttpLimits.settings("http.").stream()).toList();

    /** Every key {@link #from} reads. */
    public static final Set<String> KEYS = SETTINGS.stream().map(Setting::key).collect(Collectors.toUnmodifiableSet());

    public HttpOptions {
        if (opsPort < -1 || opsPort > 65_535) {
            throw new IllegalArgumentException("ops.port: " + opsPort + " (expected: 0..65535, or unset)");
        }
        checkToken("http.token", apiToken);
        checkToken("ops.token", opsToken);
        java.util.Objects.requireNonNull(limits, "limits");
    }

    /** One listener, no tokens, default limits. */
    public static HttpOptions defaults() {
        return new HttpOptions(null, -1, null, null, HttpLimits.defaults());
    }

    /**
     * The line a worker logs at start when its API routes (the aggregator's query API and status page) need no
     * token: they show every target's labels and details to whoever reaches the port. Empty with a token.
     */
    public java.util.Optional<String> openApiWarning() {
        return apiToken != null ? java.util.Optional.empty() : java.util.Optional.of("the query API and the status page"
                + " need no token: anyone who reaches the http port reads every target's labels and details; set"
                + " http.token or http.token.file (HEALTHMESH_HTTP_TOKEN_FILE) to require one");
    }

    /** True when the ops endpoints have a listener of their own. */
    public boolean separateOps() {
        return opsPort >= 0;
    }

    /**
     * Reads the keys of {@link #KEYS} from settings.
     *
     * @throws IllegalArgumentException {@code key: value (expected: ...)}, several joined by "; "
     */
    public static HttpOptions from(Map<String, String> settings) {
        List<String> problems = new ArrayList<>();
        int opsPort = -1;
        String portText = settings.get(OPS_PORT.key());
        if (portText != null && !portText.isBlank()) {
            try {
                opsPort = OPS_PORT.readFrom(settings);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        String apiToken = token(settings, "http.token", problems);
        String opsToken = token(settings, "ops.token", problems);
        HttpLimits limits = HttpLimits.defaults();
        try {
            limits = HttpLimits.from(settings, "http.");
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        String opsHost = settings.get(OPS_HOST.key());
        return new HttpOptions(opsHost == null || opsHost.isBlank() ? null : opsHost.trim(), opsPort, apiToken, opsToken, limits);
    }

    /**
     * Reads the keys of {@link #KEYS} for a role: what is wrong is recorded in its reader (and {@code null} returned,
     * the reader's {@code finish} then throws).
     */
    public static HttpOptions read(SettingsReader reader) {
        try {
            return from(reader.settings());
        } catch (IllegalArgumentException e) {
            reader.problem(e.getMessage());
            return null;
        }
    }

    private static String token(Map<String, String> settings, String key, List<String> problems) {
        String inline = settings.get(key);
        String file = settings.get(key + ".file");
        if (inline != null && file != null) {
            problems.add(key + " and " + key + ".file: both given (expected: one of them)");
            return null;
        }
        String token = inline;
        if (file != null) {
            try {
                token = Files.readString(Path.of(file.trim()), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                problems.add(key + ".file: " + file + " cannot be read (" + e.getClass().getSimpleName() + ")");
                return null;
            }
        }
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            checkToken(key, token);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return null;
        }
        return token;
    }

    private static void checkToken(String key, String token) {
        if (token != null && (token.length() < 16 || token.length() > 4096 || !token.matches("[\\x21-\\x7e]+"))) {
            throw new IllegalArgumentException(key + ": (hidden, " + token.length()
                    + " characters) (expected: 16-4096 printable ASCII characters, no spaces)");
        }
    }

    @Override
    public String toString() {
        return "HttpOptions[ops=" + (separateOps() ? (opsHost == null ? "" : opsHost) + ":" + opsPort : "shared")
                + ", apiToken=" + (apiToken == null ? "none" : "set") + ", opsToken=" + (opsToken == null ? "none" : "set")
                + ", limits=" + limits + "]";
    }
}
