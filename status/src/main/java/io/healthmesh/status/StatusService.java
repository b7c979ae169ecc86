package io.healthmesh.status;

import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.feed.StatusFeed;
import io.healthmesh.status.web.StatusPage;
import io.healthmesh.status.web.StatusStream;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.ops.OpsServer;
import io.healthmesh.contract.Topics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** The status page's parts, started and closed together: board, feed, event stream, routes and gauges. */
public final class StatusService implements AutoCloseable {

    /** How often changes are pushed to browsers. */
    public static final Duration PUSH_INTERVAL = Duration.ofMillis(250);

    private final StatusFeed feed;
    private final StatusStream stream;

    private StatusService(StatusFeed feed, StatusStream stream) {
        this.feed = feed;
        this.stream = stream;
    }

    /**
     * Starts the feed and the push thread, mounts {@code /status} on {@code server} and registers the gauges.
     *
     * @param kafka client settings, {@code bootstrap.servers} included
     */
    public static StatusService start(Map<String, String> kafka, Map<String, ?> serdeConfig, Topics topics,
                                      StatusSettings settings, PrometheusRegistry registry, OpsServer server) {
        requireNonNull(settings, "settings");
        requireNonNull(server, "server");
        StatusBoard board = new StatusBoard(settings.historySize());
        StatusFeed feed = new StatusFeed(kafka, serdeConfig, topics, board, Clock.systemUTC());
        StatusStream stream = new StatusStream(board, PUSH_INTERVAL, settings.maxClients(), new ObjectMapper());
        new StatusPage(board, stream, new ObjectMapper()).mount(server);
        StatusMetrics.register(registry, board, settings.perTargetMetrics(), feed::skipped, feed::lookbackSkipped,
                stream::connected);
        feed.start();
        stream.start();
        return new StatusService(feed, stream);
    }

    /** True once the feed reads every partition it shows and its thread runs (what the status role's /readyz says). */
    public boolean reading() {
        return feed.reading();
    }

    @Override
    public void close() {
        try {
            stream.close();
        } finally {
            feed.close();
        }
    }
}
