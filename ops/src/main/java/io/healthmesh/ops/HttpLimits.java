package io.healthmesh.ops;

import java.time.Duration;
import java.util.List;
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
        Declared d = new Declared(prefix);
        return new HttpLimits(d.maxConnections.readFrom(settings),
                Duration.ofMillis(d.idleTimeoutMs.readFrom(settings)), Duration.ofMillis(d.requestTimeoutMs.readFrom(settings)), d.threads.readFrom(settings),
                d.queue.readFrom(settings), DEFAULT_MAX_BODY_BYTES);
    }

    /** The settings {@link #from} reads under a prefix, declared for the role that reads them. */
    public static List<Setting<?>> settings(String prefix) {
        return new Declared(prefix).all();
    }

    /** The keys {@link #from} reads under a prefix. */
    public static List<String> keys(String prefix) {
        return settings(prefix).stream().map(Setting::key).toList();
    }

    /** The settings under one prefix. */
    private static final class Declared {
        final Setting<Integer> maxConnections;
        final Setting<Long> idleTimeoutMs;
        final Setting<Long> requestTimeoutMs;
        final Setting<Integer> threads;
        final Setting<Integer> queue;

        Declared(String prefix) {
            maxConnections = Setting.integer(prefix + MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS, 1, 1_000_000,
                    "Connections open at once; more are closed on accept.");
            idleTimeoutMs = Setting.longInteger(prefix + IDLE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT.toMillis(), 100,
                    3_600_000, "A connection that sends no byte for this long is closed.");
            requestTimeoutMs = Setting.longInteger(prefix + REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT.toMillis(),
                    100, 600_000, "A request must arrive in full within this long of its first byte.");
            threads = Setting.integer(prefix + THREADS, DEFAULT_THREADS, 1, 1_024, "Threads running the routes.");
            queue = Setting.integer(prefix + QUEUE, DEFAULT_QUEUE, 0, 1_000_000,
                    "Requests waiting for a thread; past it the answer is 503 at once.");
        }

        List<Setting<?>> all() {
            return List.of(maxConnections, idleTimeoutMs, requestTimeoutMs, threads, queue);
        }
    }

    private static void check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
