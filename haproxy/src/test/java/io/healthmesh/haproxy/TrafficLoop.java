package io.healthmesh.haproxy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client thread sending GETs through HAProxy's frontend one after the other, bounded in count and time,
 * counting the answers by the backend that gave them (its body) and the others (503 while a backend is empty,
 * errors).
 */
final class TrafficLoop implements AutoCloseable {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final HttpRequest request;
    private final long maxRequests;
    private final long deadlineNanos;
    private final Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopped;

    TrafficLoop(int frontendPort, long maxRequests, Duration maxTime) {
        this.request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontendPort + "/"))
                .timeout(Duration.ofSeconds(5)).build();
        this.maxRequests = maxRequests;
        this.deadlineNanos = System.nanoTime() + maxTime.toNanos();
        this.thread = new Thread(this::run, "traffic-through-haproxy");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        while (!stopped && sent.get() < maxRequests && System.nanoTime() < deadlineNanos) {
            String answer;
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                answer = r.statusCode() == 200 ? r.body() : "status-" + r.statusCode();
            } catch (java.io.IOException e) {
                answer = "error";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            answers.computeIfAbsent(answer, k -> new AtomicLong()).incrementAndGet();
            sent.incrementAndGet();
        }
    }

    /** Requests answered (by anything) so far. */
    long answered() {
        return sent.get();
    }

    long answeredBy(String backend) {
        AtomicLong n = answers.get(backend);
        return n == null ? 0 : n.get();
    }

    boolean running() {
        return thread.isAlive();
    }

    @Override
    public String toString() {
        return answers.toString();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(10_000);
    }
}
