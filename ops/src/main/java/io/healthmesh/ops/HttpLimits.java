package io.healthmesh.ops;

import java.time.Duration;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The bounds every healthmesh HTTP server applies, so that slow or many clients cannot starve it:
 * connections open at once (more are closed at once), how long a connection may sit idle waiting for a
 * request, how long a started request may take to arrive in full (a client dribbling bytes is cut off), the
 * threads that run handlers and the requests queued for them (past the queue: 503), and the largest body.
 *
 * @param maxConnections connections open at once; further ones are closed on accept
 * @param idleTimeout time allowed between connection (or last answer) and the first byte of the next request
 * @param requestTimeout time allowed from a request's first byte to its last
 * @param threads handler threads
 * @param queue requests waiting for a handler thread; past it the answer is 503
 * @param maxBodyBytes largest request body; larger gets 413
 */
public record HttpLimits(int maxConnections, Duration idleTimeout, Duration requestTimeout, int threads, int queue,
                         int maxBodyBytes) {

    public static final int DEFAULT_MAX_CONNECTIONS = 4_096;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_THREADS = 4;
    public static final int DEFAULT_QUEUE = 256;
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    /** The setting keys {@link #from} reads, after the role's prefix (e.g. {@code http.max.connections}). */
    public static final String MAX_CONNECTIONS = "max.connections";
    public static final String IDLE_TIMEOUT_MS = "idle.timeout.ms";
    public static final String REQUEST_TIMEOUT_MS = "request.timeout.ms";
    public static final String THREADS = "threads";
    public static final String QUEUE = "queue";

    public HttpLimits {
        requireNonNull(idleTimeout, "idleTimeout");
        requireNonNull(requestTimeout, "requestTimeout");
        check(MAX_CONNECTIONS, maxConnections, 1, 1_000_000);
        check(IDLE_TIMEOUT_MS, idleTimeout.toMillis(), 100, 3_600_000);
        check(REQUEST_TIMEOUT_MS, requestTimeout.toMillis(), 100, 600_000);
        check(THREADS, threads, 1, 1_024);
        check(QUEUE, queue, 0, 1_000_000);
        check("max.body.bytes", maxBodyBytes, 0, 64 * 1024 * 1024);
    }

    public static HttpLimits defaults() {
        return new HttpLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_THREADS,
                DEFAULT_QUEUE, DEFAULT_MAX_BODY_BYTES);
    }

    public HttpLimits withMaxBodyBytes(int bytes) {
        return new HttpLimits(maxConnections, idleTimeout, requestTimeout, threads, queue, bytes);
    }

    public HttpLimits withThreads(int handlerThreads) {
        return new HttpLimits(maxConnections, idleTimeout, requestTimeout, handlerThreads, queue, maxBodyBytes);
    }

    /**
     * Reads {@code <prefix>max.connections}, {@code <prefix>idle.timeout.ms}, {@code <prefix>request.timeout.ms},
     * {@code <prefix>threads} and {@code <prefix>queue} from settings, defaults for those absent.
     *
     * @throws IllegalArgumentException {@code key: value (expected: range)} for a value out of range or not a number
     */
    public static HttpLimits from(Map<String, String> settings, String prefix) {
        HttpLimits d = defaults();
        return new HttpLimits(
                (int) number(settings, prefix + MAX_CONNECTIONS, d.maxConnections(), 1, 1_000_000),
                Duration.ofMillis(number(settings, prefix + IDLE_TIMEOUT_MS, d.idleTimeout().toMillis(), 100, 3_600_000)),
                Duration.ofMillis(number(settings, prefix + REQUEST_TIMEOUT_MS, d.requestTimeout().toMillis(), 100, 600_000)),
                (int) number(settings, prefix + THREADS, d.threads(), 1, 1_024),
                (int) number(settings, prefix + QUEUE, d.queue(), 0, 1_000_000),
                d.maxBodyBytes());
    }

    /** The settings {@link #from} reads under a prefix, declared for the role that reads them. */
    public static java.util.List<Setting> settings(String prefix) {
        return java.util.List.of(
                new Setting(prefix + MAX_CONNECTIONS, Integer.toString(DEFAULT_MAX_CONNECTIONS), "1..1000000",
                        "Connections open at once; more are closed on accept."),
                new Setting(prefix + IDLE_TIMEOUT_MS, Long.toString(DEFAULT_IDLE_TIMEOUT.toMillis()), "100..3600000",
                        "A connection that sends no byte for this long is closed."),
                new Setting(prefix + REQUEST_TIMEOUT_MS, Long.toString(DEFAULT_REQUEST_TIMEOUT.toMillis()), "100..600000",
                        "A request must arrive in full within this long of its first byte."),
                new Setting(prefix + THREADS, Integer.toString(DEFAULT_THREADS), "1..1024", "Threads running the routes."),
                new Setting(prefix + QUEUE, Integer.toString(DEFAULT_QUEUE), "0..1000000",
                        "Requests waiting for a thread; past it the answer is 503 at once."));
    }

    /** The keys {@link #from} reads under a prefix. */
    public static java.util.List<String> keys(String prefix) {
        return java.util.List.of(prefix + MAX_CONNECTIONS, prefix + IDLE_TIMEOUT_MS, prefix + REQUEST_TIMEOUT_MS,
                prefix + THREADS, prefix + QUEUE);
    }

    private static long number(Map<String, String> settings, String key, long defaultValue, long min, long max) {
        String text = settings.get(key);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": " + text + " (expected: " + min + ".." + max + ")");
        }
        check(key, value, min, max);
        return value;
    }

    private static void check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
