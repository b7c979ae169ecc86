package io.healthmesh.bench.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** Reads a worker's Prometheus {@code /metrics} and picks the samples of one metric, for a bench's report. */
public final class MetricLines {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Longest text read: a worker's whole exposition is a few hundred KiB. */
    private static final int MAX_CHARS = 8 << 20;

    private MetricLines() {
    }

    /**
     * The sample lines of {@code metric} (name and labels, then the value) that {@code metrics} serves, or one line
     * saying why there are none; never throws for an unreachable worker (the report says so instead).
     */
    public static List<String> read(URI metrics, String metric) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return List.of(metrics + " answered " + response.statusCode());
            }
            String body = response.body();
            List<String> lines = (body.length() > MAX_CHARS ? body.substring(0, MAX_CHARS) : body).lines()
                    .filter(l -> l.startsWith(metric + "{") || l.startsWith(metric + " ")).toList();
            return lines.isEmpty() ? List.of(metric + ": no sample") : lines;
        } catch (IOException e) {
            return List.of(metrics + " not read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of(metrics + " not read: interrupted");
        }
    }
}
