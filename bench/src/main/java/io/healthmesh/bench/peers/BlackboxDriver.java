package io.healthmesh.bench.peers;

import io.healthmesh.testkit.farm.FarmTarget;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * Scrapes blackbox_exporter's {@code /probe} at a fixed rate over a list of targets, round robin, as a Prometheus
 * server with that many scrape targets would. The rate is paced in 10 ms steps; at most {@code maxInFlight}
 * scrapes wait for an answer, and a scrape that would exceed that bound is not sent but counted
 * ({@link Result#notSent()}): the exporter could not keep up with the rate.
 */
public final class BlackboxDriver {

    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private BlackboxDriver() {
    }

    /**
     * What one drive did.
     *
     * @param succeeded scrapes whose body said {@code probe_success 1}
     * @param failed scrapes answered with {@code probe_success 0}, an error status or no answer
     * @param notSent scrapes skipped because {@code maxInFlight} were already waiting
     * @param cpuNanos the exporter's CPU time over the window
     */
    public record Result(long succeeded, long failed, long notSent, long elapsedNanos, long cpuNanos) {

        public long probes() {
            return succeeded + failed;
        }

        public double probesPerSecond() {
            return probes() * 1e9 / elapsedNanos;
        }

        public double cpuMicrosPerProbe() {
            return probes() == 0 ? Double.NaN : cpuNanos / 1e3 / probes();
        }
    }

    /** Drives {@code peer} at {@code probesPerSecond} for {@code duration}, then waits (at most 5 s) for stragglers. */
    public static Result drive(BlackboxPeer peer, List<FarmTarget> targets, double probesPerSecond,
                               Duration duration, int maxInFlight) throws InterruptedException {
        requireNonNull(peer, "peer");
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("targets: none (expected: at least one)");
        }
        if (!(probesPerSecond > 0 && probesPerSecond <= 1_000_000)) {
            throw new IllegalArgumentException("probesPerSecond: " + probesPerSecond + " (expected: 0..1000000)");
        }
        URI[] uris = targets.stream().map(peer::probeUri).toArray(URI[]::new);
        ExecutorService callbacks = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "blackbox-driver");
            t.setDaemon(true);
            return t;
        });
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(callbacks)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Semaphore inFlight = new Semaphore(maxInFlight);
        AtomicLong succeeded = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long notSent = 0;
        long sent = 0;
        long cpuBefore = peer.cpuNanos();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        int next = 0;
        try {
            for (long step = start; step < end; step += STEP_NANOS) {
                long due = (long) ((step + STEP_NANOS - start) / 1e9 * probesPerSecond);
                while (sent + notSent < due) {
                    if (!inFlight.tryAcquire()) {
                        notSent++;
                        continue;
                    }
                    sent++;
                    URI uri = uris[next];
                    next = (next + 1) % uris.length;
                    client.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .whenComplete((response, error) -> {
                                inFlight.release();
                                boolean ok = error == null && response.statusCode() == 200
                                        && response.body().contains("\nprobe_success 1");
                                (ok ? succeeded : failed).incrementAndGet();
                            });
                }
                long sleep = step + STEP_NANOS - System.nanoTime();
                if (sleep > 0) {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                }
            }
            inFlight.tryAcquire(maxInFlight, 5, TimeUnit.SECONDS);
            long elapsed = System.nanoTime() - start;
            return new Result(succeeded.get(), failed.get() + (sent - succeeded.get() - failed.get()), notSent,
                    elapsed, peer.cpuNanos() - cpuBefore);
        } finally {
            callbacks.shutdownNow();
        }
    }
}
