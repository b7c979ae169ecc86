package io.healthmesh.aggregator.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.aggregator.topology.AggregatorTopology;
import io.healthmesh.aggregator.topology.HistoryRows;
import io.healthmesh.aggregator.topology.RoutableList;
import io.healthmesh.aggregator.topology.StoredTarget;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.ops.OpsServer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The query API, mounted on the worker's {@link OpsServer}. A key is answered by the instance that owns its
 * partition (found with {@link KafkaStreams#queryMetadataForKey}); another instance forwards the request there over
 * HTTP once (a forwarded request is never forwarded again). {@code /targets?group=G} asks every instance for its
 * local targets of G and merges them. Answers 503 while the stores are not queryable (rebalancing, restoring).
 */
public final class QueryApi {

    private static final Logger LOG = LoggerFactory.getLogger(QueryApi.class);
    /** Marks a request forwarded by another instance. */
    static final String FORWARDED = "X-Healthmesh-Forwarded";
    private static final String JSON = "application/json";
    private static final String HISTORY = "/history";
    private static final String ROUTABLE = "/routable";
    private static final String MEMBERS = "/members";
    /** Largest page of a group's routable ids or members. */
    static final int MAX_PAGE = 10_000;

    private final KafkaStreams streams;
    private final HostInfo self;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper mapper = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private final String token;
    /** This instance's {@code history.length}: how many of a target's history rows a read keeps, newest first. */
    private final int historyLength;

    /**
     * @param self this instance's {@code application.server}
     * @param token the bearer token every instance's query API requires (sent when forwarding), or null
     * @param historyLength this instance's {@code history.length} (the owner of a target answers for its history)
     */
    public QueryApi(KafkaStreams streams, HostInfo self, String token, int historyLength) {
        this.streams = requireNonNull(streams, "streams");
        this.self = requireNonNull(self, "self");
        this.token = token;
        this.historyLength = historyLength;
    }

    /** Adds the routes to {@code server}. */
    public void mount(OpsServer server) {
        server.route("/targets", this::targets);
        server.route("/groups", this::groups);
        server.route("/internal/targets", this::localTargetsOfGroup);
    }

    /** The answer to one request: status and JSON body. */
    record Answer(int status, Object body) {
        static Answer error(int status, String message) {
            return new Answer(status, Map.of("error", message));
        }
    }

    private void targets(HttpExchange exchange) throws IOException {
        handle(exchange, () -> {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/targets") || path.equals("/targets/")) {
                String group = queryParameter(exchange, "group");
                if (group == null) {
                    return Answer.error(400, "group: missing (expected: /targets?group=<group id> or /targets/<id>)");
                }
                return targetsOfGroup(group);
            }
            // getPath() is already percent-decoded (and leaves '+' alone, as a path should)
            String id = path.substring("/targets/".length());
            if (id.endsWith(HISTORY) && id.length() > HISTORY.length()) {
                return history(exchange, id.substring(0, id.length() - HISTORY.length()));
            }
            return byKey(exchange, AggregatorTopology.TARGET_STORE, id, (StoredTarget s) -> TargetView.of(s.state()));
        });
    }

    /** {@code GET /targets/{id}/history?since=}: the target's recent results and status changes. */
    private Answer history(HttpExchange exchange, String id) throws IOException, InterruptedException {
        String since = queryParameter(exchange, "since");
        long sinceMs;
        try {
            sinceMs = since == null ? 0 : HistorySince.parse(since, System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            return Answer.error(400, e.getMessage());
        }
        // the history rows are partitioned like the targets' states: the owner of one owns the other
        return byKey(exchange, AggregatorTopology.TARGET_STORE, id, (StoredTarget s) -> {
            TargetHistory h = HistoryRows.read(streams.store(StoreQueryParameters.fromNameAndType(
                    AggregatorTopology.HISTORY_STORE, QueryableStoreTypes.<Bytes, byte[]>keyValueStore())), id,
                    historyLength);
            return HistoryView.of(id, h == null ? TargetHistory.EMPTY : h, sinceMs);
        });
    }

    private void groups(HttpExchange exchange) throws IOException {
        handle(exchange, () -> {
            String rest = exchange.getRequestURI().getPath().substring("/groups".length());
            if (rest.length() <= 1) {
                return Answer.error(400, "group: missing (expected: /groups/<id>, /groups/<id>/routable or"
                        + " /groups/<id>/members)");
            }
            String page = rest.endsWith(ROUTABLE) ? ROUTABLE : rest.endsWith(MEMBERS) ? MEMBERS : "";
            String id = rest.substring(1, rest.length() - page.length());
            String after = queryParameter(exchange, "after");
            String limitText = queryParameter(exchange, "limit");
            int limit;
            try {
                limit = limitText == null ? RoutableList.DEFAULT_MAX_IDS : Integer.parseInt(limitText);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_PAGE) {
                return Answer.error(400, "limit: " + limitText + " (expected: 1.." + MAX_PAGE + ")");
            }
            int size = limit;
            return group(exchange, id, (counts, rows) -> switch (page) {
                case ROUTABLE -> GroupView.Routable.of(id, counts,
                        RoutableList.routable(rows, id, counts.failOpen(), after, size));
                case MEMBERS -> GroupView.Members.of(id, counts, RoutableList.members(rows, id, after, size));
                default -> GroupView.of(id, counts, RoutableList.routable(rows, id, counts.failOpen(), null, size),
                        RoutableList.members(rows, id, null, size));
            });
        });
    }

    /** Reads a group's counters and rows (both stores are partitioned by group id, like the repartition topic). */
    private interface GroupRead {
        Object view(GroupState counts, ReadOnlyKeyValueStore<Bytes, byte[]> rows);
    }

    private Answer group(HttpExchange exchange, String id, GroupRead read) throws IOException, InterruptedException {
        // a group without members that has a threshold keeps a row: it is not a group yet
        return byKey(exchange, AggregatorTopology.GROUP_STORE, id, (GroupState counts) -> counts.counts().isEmpty()
                ? null : read.view(counts,
                streams.store(StoreQueryParameters.fromNameAndType(AggregatorTopology.GROUP_MEMBERS_STORE,
                        QueryableStoreTypes.<Bytes, byte[]>keyValueStore()))));
    }

    private void localTargetsOfGroup(HttpExchange exchange) throws IOException {
        handle(exchange, () -> {
            String group = queryParameter(exchange, "group");
            return group == null ? Answer.error(400, "group: missing") : new Answer(200, localTargets(group));
        });
    }

    private <V> Answer byKey(HttpExchange exchange, String store, String key, Function<V, Object> view)
            throws IOException, InterruptedException {
        KeyQueryMetadata owner = streams.queryMetadataForKey(store, key, Serdes.String().serializer());
        if (owner == null || owner.equals(KeyQueryMetadata.NOT_AVAILABLE) || owner.activeHost().port() < 0) {
            return Answer.error(503, "not available: the aggregator is starting or rebalancing");
        }
        if (!owner.activeHost().equals(self)) {
            if (exchange.getRequestHeaders().containsKey(FORWARDED)) {
                return Answer.error(503, "not available: ownership is moving, retry");
            }
            String query = exchange.getRequestURI().getRawQuery();
            return forward(owner.activeHost(), exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query));
        }
        ReadOnlyKeyValueStore<String, V> local = streams.store(
                StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.<String, V>keyValueStore()));
        V value = local.get(key);
        Object shown = value == null ? null : view.apply(value);
        return shown == null ? Answer.error(404, "not found: " + key) : new Answer(200, shown);
    }

    private Answer targetsOfGroup(String group) throws IOException, InterruptedException {
        List<TargetView> all = new ArrayList<>();
        for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
            if (!instance.stateStoreNames().contains(AggregatorTopology.TARGET_STORE)) {
                continue;
            }
            if (instance.hostInfo().equals(self)) {
                all.addAll(localTargets(group));
            } else {
                Answer remote = forward(instance.hostInfo(),
                        "/internal/targets?group=" + URLEncoder.encode(group, StandardCharsets.UTF_8));
                if (remote.status() != 200) {
                    return Answer.error(503, "not available: instance " + instance.hostInfo() + " answered "
                            + remote.status());
                }
                for (Object item : (List<?>) remote.body()) {
                    all.add(mapper.convertValue(item, TargetView.class));
                }
            }
        }
        all.sort(Comparator.comparing(TargetView::targetId));
        return new Answer(200, Map.of("group", group, "targets", all));
    }

    private List<TargetView> localTargets(String group) {
        ReadOnlyKeyValueStore<String, StoredTarget> local = streams.store(StoreQueryParameters.fromNameAndType(
                AggregatorTopology.TARGET_STORE, QueryableStoreTypes.<String, StoredTarget>keyValueStore()));
        List<TargetView> views = new ArrayList<>();
        try (KeyValueIterator<String, StoredTarget> it = local.all()) {
            while (it.hasNext()) {
                TargetHealthState s = it.next().value.state();
                if (s.spec().group().equals(group)) {
                    views.add(TargetView.of(s));
                }
            }
        }
        return views;
    }

    private Answer forward(HostInfo host, String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + host.host() + ":" + host.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(5)).header(FORWARDED, self.toString()).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        Object body = response.body().length == 0 ? Map.of() : mapper.readValue(response.body(), Object.class);
        return new Answer(response.statusCode(), body);
    }

    /** Computes an answer. */
    private interface Computation {
        Answer compute() throws IOException, InterruptedException;
    }

    private void handle(HttpExchange exchange, Computation computation) throws IOException {
        Answer answer;
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
            answer = Answer.error(405, "method: " + exchange.getRequestMethod() + " (expected: GET)");
        } else {
            try {
                answer = computation.compute();
            } catch (InvalidStateStoreException e) {
                answer = Answer.error(503, "not available: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answer = Answer.error(503, "interrupted");
            } catch (IOException e) {
                LOG.warn("query {} could not reach another instance: {}", exchange.getRequestURI(), e.toString());
                answer = Answer.error(502, "another instance could not be reached: " + e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("query {} failed", exchange.getRequestURI(), e);
                answer = Answer.error(500, e.toString());
            }
        }
        OpsServer.respond(exchange, answer.status(), JSON, mapper.writeValueAsBytes(answer.body()));
    }

    private static String queryParameter(HttpExchange exchange, String name) {
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && decode(pair.substring(0, eq)).equals(name)) {
                return decode(pair.substring(eq + 1));
            }
        }
        return null;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
