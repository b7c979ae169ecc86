package io.healthmesh.ops;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The bounds every healthmesh HTTP server applies, so that slow or many clients cannot starve it:
 * connections open at once, and per client (source address); a small reserve of further connections that serve
 * only {@code /healthz} and {@code /readyz} under short deadlines, so an orchestrator's probe gets in when every
 * ordinary connection is taken; how long a connection may sit idle waiting for a request, how long a started
 * request may take to arrive in full (a client dribbling bytes is cut off), how long an answer may go without a
 * byte written (a handler that never answers does not keep its connection); the threads that run handlers and the
 * requests queued for them (past the queue: 503), and the largest body.
 *
 * @param maxConnections ordinary connections open at once; past it a connection goes to the probe reserve or is
 *     closed on accept
 * @param idleTimeout time allowed between connection (or last answer) and the first byte of the next request
 * @param requestTimeout time allowed from a request's first byte to its last
 * @param threads handler threads
 * @param queue requests waiting for a handler thread; past it the answer is 503
 * @param maxBodyBytes largest request body; larger gets 413
 * @param maxConnectionsPerClient ordinary connections one source address may hold (at most {@code maxConnections})
 * @param probeConnections the reserve past {@code maxConnections} (or past a client's share): connections that
 *     serve only {@code /healthz} and {@code /readyz}, cut after {@link #PROBE_DEADLINE}, at most
 *     {@link #PROBE_CONNECTIONS_PER_CLIENT} per client
 * @param answerTimeout time a request being handled may go without a byte of its answer written; a stream that
 *     writes at least this often runs on
 */
public record HttpLimits(int maxConnections, Duration idleTimeout, Duration requestTimeout, int threads, int queue,
                         int maxBodyBytes, int maxConnectionsPerClient, int probeConnections, Duration answerTimeout) {

    public static final int DEFAULT_MAX_CONNECTIONS = 4_096;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_THREADS = 4;
    public static final int DEFAULT_QUEUE = 256;
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;
    public static final int DEFAULT_PROBE_CONNECTIONS = 16;
    public static final Duration DEFAULT_ANSWER_TIMEOUT = Duration.ofSeconds(60);
    /** Idle, request and answer deadline of a connection of the probe reserve: a probe sends at once. */
    public static final Duration PROBE_DEADLINE = Duration.ofSeconds(2);
    /** Probe-reserve connections one source address may hold at once (a liveness and a readiness probe). */
    public static final int PROBE_CONNECTIONS_PER_CLIENT = 2;

    /** The setting keys {@link #from} reads, after the role's prefix (e.g. {@code http.max.connections}). */
    public static final String MAX_CONNECTIONS = "max.connections";
    public static final String IDLE_TIMEOUT_MS = "idle.timeout.ms";
    public static final String REQUEST_TIMEOUT_MS = "request.timeout.ms";
    public static final String THREADS = "threads";
    public static final String QUEUE = "queue";
    public static final String MAX_CONNECTIONS_PER_CLIENT = "max.connections.per.client";
    public static final String PROBE_CONNECTIONS = "probe.connections";
    public static final String ANSWER_TIMEOUT_MS = "answer.timeout.ms";

    public HttpLimits {
        requireNonNull(idleTimeout, "idleTimeout");
        requireNonNull(requestTimeout, "requestTimeout");
        check(MAX_CONNECTIONS, maxConnections, 1, 1_000_000);
        check(IDLE_TIMEOUT_MS, idleTimeout.toMillis(), 100, 3_600_000);
        check(REQUEST_TIMEOUT_MS, requestTimeout.toMillis(), 100, 600_000);
        check(THREADS, threads, 1, 1_024);
        check(QUEUE, queue, 0, 1_000_000);
        check("max.body.bytes", maxBodyBytes, 0, 64 * 1024 * 1024);
        requireNonNull(answerTimeout, "answerTimeout");
        checkPerClient(maxConnectionsPerClient, maxConnections);
        check(PROBE_CONNECTIONS, probeConnections, 1, 1_024);
        check(ANSWER_TIMEOUT_MS, answerTimeout.toMillis(), 100, 3_600_000);
    }

    /** The bounds above with the default share per client (capped at {@code maxConnections}), reserve and answer deadline. */
    public HttpLimits(int maxConnections, Duration idleTimeout, Duration requestTimeout, int threads, int queue,
                      int maxBodyBytes) {
        this(maxConnections, idleTimeout, requestTimeout, threads, queue, maxBodyBytes,
                Math.min(DEFAULT_MAX_CONNECTIONS_PER_CLIENT, maxConnections), DEFAULT_PROBE_CONNECTIONS,
                DEFAULT_ANSWER_TIMEOUT);
    }

    public static HttpLimits defaults() {
        return new HttpLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_THREADS,
                DEFAULT_QUEUE, DEFAULT_MAX_BODY_BYTES);
    }

    public HttpLimits withMaxBodyBytes(int bytes) {
        return new HttpLimits(maxConnections, idleTimeout, requestTimeout, threads, queue, bytes, maxConnectionsPerClient,
                probeConnections, answerTimeout);
    }

    public HttpLimits withThreads(int handlerThreads) {
        return new HttpLimits(maxConnections, idleTimeout, requestTimeout, handlerThreads, queue, maxBodyBytes,
                maxConnectionsPerClient, probeConnections, answerTimeout);
    }

    /** These limits with other connection bounds: in all, per client, and the probe reserve. */
    public HttpLimits withConnections(int max, int perClient, int probeReserve) {
        return new HttpLimits(max, idleTimeout, requestTimeout, threads, queue, maxBodyBytes, perClient, probeReserve,
                answerTimeout);
    }

    public HttpLimits withAnswerTimeout(Duration timeout) {
        return new HttpLimits(maxConnections, idleTimeout, requestTimeout, threads, queue, maxBodyBytes,
                maxConnectionsPerClient, probeConnections, timeout);
    }

    /**
     * Reads {@code <prefix>max.connections}, {@code <prefix>idle.timeout.ms}, {@code <prefix>request.timeout.ms},
     * {@code <prefix>threads}, {@code <prefix>queue}, {@code <prefix>max.connections.per.client},
     * {@code <prefix>probe.connections} and {@code <prefix>answer.timeout.ms} from settings, defaults for those absent.
     *
     * @throws IllegalArgumentException {@code key: value (expected: range)} for a value out of range or not a number
     */
    public static HttpLimits from(Map<String, String> settings, String prefix) {
        Declared d = new Declared(prefix);
        int max = d.maxConnections.readFrom(settings);
        int perClient = settings.containsKey(d.maxConnectionsPerClient.key())
                ? d.maxConnectionsPerClient.readFrom(settings) : Math.min(DEFAULT_MAX_CONNECTIONS_PER_CLIENT, max);
        checkPerClient(perClient, max);
        return new HttpLimits(max, Duration.ofMillis(d.idleTimeoutMs.readFrom(settings)),
                Duration.ofMillis(d.requestTimeoutMs.readFrom(settings)), d.threads.readFrom(settings),
                d.queue.readFrom(settings), DEFAULT_MAX_BODY_BYTES, perClient, d.probeConnections.readFrom(settings),
                Duration.ofMillis(d.answerTimeoutMs.readFrom(settings)));
    }

    private static void checkPerClient(int perClient, int max) {
        if (perClient < 1 || perClient > max) {
            throw new IllegalArgumentException(MAX_CONNECTIONS_PER_CLIENT + ": " + perClient + " (expected: 1.." + max
                    + ", at most " + MAX_CONNECTIONS + ")");
        }
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
        final Setting<Integer> maxConnectionsPerClient;
        final Setting<Integer> probeConnections;
        final Setting<Long> answerTimeoutMs;

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
            maxConnectionsPerClient = Setting.integer(prefix + MAX_CONNECTIONS_PER_CLIENT,
                    DEFAULT_MAX_CONNECTIONS_PER_CLIENT, 1, 1_000_000,
                    "Connections one source address may hold; more are closed on accept.")
                    .documentedAs(Integer.toString(DEFAULT_MAX_CONNECTIONS_PER_CLIENT), "1..max.connections");
            probeConnections = Setting.integer(prefix + PROBE_CONNECTIONS, DEFAULT_PROBE_CONNECTIONS, 1, 1_024,
                    "Connections past the caps kept for /healthz and /readyz only (2 s deadlines, 2 per client).");
            answerTimeoutMs = Setting.longInteger(prefix + ANSWER_TIMEOUT_MS, DEFAULT_ANSWER_TIMEOUT.toMillis(), 100,
                    3_600_000, "A request being handled that writes no byte of its answer for this long loses its"
                            + " connection.");
        }

        List<Setting<?>> all() {
            return List.of(maxConnections, idleTimeoutMs, requestTimeoutMs, threads, queue, maxConnectionsPerClient,
                    probeConnections, answerTimeoutMs);
        }
    }

    private static void check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
