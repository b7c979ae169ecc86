package io.healthmesh.bench.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Waits for workers to be ready by their own word ({@code GET /readyz} answering 200: the aggregator's Kafka Streams
 * RUNNING, the prober assigned and caught up), held for a while, because a new aggregator rebalances again soon after
 * its first RUNNING (its internal topics appear).
 */
public final class Readiness {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Readiness() {
    }

    /** The readiness URL of a worker serving HTTP on loopback {@code port}. */
    public static URI of(int port) {
        return URI.create("http://127.0.0.1:" + port + "/readyz");
    }

    /**
     * Polls every {@code urls} each 500 ms until all have answered 200 at every poll for {@code hold}; false when
     * that has not happened within {@code within}.
     */
    public static boolean await(List<URI> urls, Duration hold, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        long readySince = -1;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            if (urls.stream().allMatch(Readiness::ready)) {
                readySince = readySince < 0 ? now : readySince;
                if (now - readySince >= hold.toNanos()) {
                    return true;
                }
            } else {
                readySince = -1;
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
        return false;
    }

    private static boolean ready(URI url) {
        try {
            HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;   // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
