package io.healthmesh.notifier.route;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.ops.file.RoleFile;
import io.healthmesh.notifier.domain.RouteFilter;
import io.healthmesh.notifier.domain.RoutePolicy;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;


/**
 * Reads and validates the route file (YAML, or JSON, which YAML reads too). Unknown fields are rejected, defaults
 * applied, and every problem is reported at once as {@code routes[i].field: value (expected: ...)}. The format is in
 * docs/CONFIGURATION.md, "Route file".
 */
public final class RouteFile {

    public static final int MAX_ROUTES = 100;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Alertmanager forgets an alert not re-sent within its {@code resolve_timeout} (5m by default). */
    public static final Duration DEFAULT_ALERTMANAGER_REPEAT = Duration.ofMinutes(1);
    static final Set<String> STATUSES = Set.of("HEALTHY", "UNHEALTHY", "DETECTING", "DISABLED");

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}");
    private static final Set<String> RESTRICTED_HEADERS =
            Set.of("connection", "content-length", "content-type", "expect", "host", "upgrade");
    private static final Set<String> TOP_FIELDS = Set.of("routes");
    private static final Set<String> ROUTE_FIELDS =
            Set.of("name", "type", "url", "headers", "timeout", "minDuration", "repeat", "resolved", "filter", "labels");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]{0,99}");
    private static final int MAX_ALERT_LABELS = 32;
    /** Scheme and authority of a URL-like text (group 1 the scheme, group 2 the authority). */
    private static final Pattern SCHEME_AND_HOST = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]{0,20})://([^/?#\\s]{1,255})");
    private static final Set<String> FILTER_FIELDS = Set.of("groups", "labels", "statuses", "failOpen");
    private static final Duration MAX_DURATION = Duration.ofDays(7);

    private final RoleFile doc = new RoleFile("route file");

    private RouteFile() {
    }

    /**
     * Reads the routes of a file.
     *
     * @throws IllegalArgumentException when the file is missing, unreadable or invalid, listing every problem
     */
    public static List<RouteConfig> load(Path file) {
        return parse(RoleFile.readText(file, "routes.file", "route file"));
    }

    /**
     * Parses route file text (YAML or JSON).
     *
     * @throws IllegalArgumentException listing every problem, separated by {@code "; "}
     */
    public static List<RouteConfig> parse(String text) {
        JsonNode root = RoleFile.parse(text, "route file");
        RouteFile reader = new RouteFile();
        List<RouteConfig> routes = reader.routes(root);
        reader.doc.requireValid();
        return routes;
    }

    private List<RouteConfig> routes(JsonNode root) {
        if (root == null || !root.isObject()) {
            doc.problem("route file: " + RoleFile.shown(root) + " (expected: a mapping with a routes list)");
            return List.of();
        }
        doc.unknownFields(root, TOP_FIELDS, "");
        JsonNode list = root.get("routes");
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > MAX_ROUTES) {
            doc.problem("routes: " + RoleFile.shown(list) + " (expected: a list of 1.." + MAX_ROUTES + " routes)");
            return List.of();
        }
        List<RouteConfig> routes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode name = list.get(i).get("name");
            if (name != null && name.isValueNode() && !names.add(name.asText().trim())) {
                doc.problem("routes[" + i + "].name: " + name.asText() + " (expected: a name no other route has)");
            }
            RouteConfig route = route(list.get(i), "routes[" + i + "]");
            if (route != null) {
                routes.add(route);
            }
        }
        return routes;
    }

    private RouteConfig route(JsonNode node, String at) {
        if (!node.isObject()) {
            doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a mapping with name, type and url)");
            return null;
        }
        int before = doc.problems().size();
        doc.unknownFields(node, ROUTE_FIELDS, at + ".");
        String name = doc.text(node, "name", at, null);
        if (name != null && !NAME.matcher(name).matches()) {
            doc.problem(at + ".name: " + name + " (expected: 1-64 of [A-Za-z0-9._-])");
        }
        String typeText = doc.text(node, "type", at, null);
        RouteType type = null;
        if (typeText != null) {
            try {
                type = RouteType.valueOf(typeText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                doc.problem(at + ".type: " + typeText + " (expected: webhook, slack or alertmanager)");
            }
        }
        URI url = url(doc.text(node, "url", at, null), at + ".url");
        Map<String, String> headers = headers(node.get("headers"), at + ".headers");
        Duration timeout = duration(node, "timeout", at, DEFAULT_TIMEOUT, Duration.ofMillis(100), Duration.ofMinutes(5));
        Duration minDuration = duration(node, "minDuration", at, Duration.ZERO, Duration.ZERO, MAX_DURATION);
        Duration repeatDefault = type == RouteType.ALERTMANAGER ? DEFAULT_ALERTMANAGER_REPEAT : Duration.ZERO;
        Duration repeat = duration(node, "repeat", at, repeatDefault, Duration.ZERO, MAX_DURATION);
        if (repeat != null && !repeat.isZero() && repeat.compareTo(Duration.ofSeconds(1)) < 0) {
            doc.problem(at + ".repeat: " + node.get("repeat").asText() + " (expected: 0 or 1s..7d)");
        }
        boolean resolved = bool(node, "resolved", at, true);
        RouteFilter filter = filter(node.get("filter"), at + ".filter");
        List<String> alertLabels = alertLabels(node.get("labels"), type, at + ".labels");
        if (doc.problems().size() > before || name == null || type == null || url == null) {
            return null;
        }
        return new RouteConfig(type, url, headers, timeout, new RoutePolicy(name, filter, minDuration, repeat, resolved),
                alertLabels);
    }

    private RouteFilter filter(JsonNode node, String at) {
        if (node == null || node.isNull()) {
            return RouteFilter.DEFAULT;
        }
        if (!node.isObject()) {
            doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a mapping of groups, labels, statuses, failOpen)");
            return RouteFilter.DEFAULT;
        }
        doc.unknownFields(node, FILTER_FIELDS, at + ".");
        Set<String> groups = strings(node.get("groups"), at + ".groups", Set.of());
        Map<String, String> labels = stringMap(node.get("labels"), at + ".labels");
        Set<String> statuses = strings(node.get("statuses"), at + ".statuses", RouteFilter.DEFAULT.statuses());
        for (String s : statuses) {
            if (!STATUSES.contains(s)) {
                doc.problem(at + ".statuses: " + s + " (expected: HEALTHY, UNHEALTHY, DETECTING or DISABLED)");
            }
        }
        boolean failOpen = bool(node, "failOpen", at, true);
        return new RouteFilter(groups, labels, statuses, failOpen);
    }

    private URI url(String text, String at) {
        if (text == null) {
            return null;
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        // a receiver's URL may be its secret (a Slack webhook's path is): only its scheme and host are shown
        doc.problem(at + ": " + masked(text) + " (expected: an http:// or https:// URL with a host)");
        return null;
    }

    /** A URL as an error message may show it: scheme and host, the rest hidden; text that is no URL by its size. */
    static String masked(String text) {
        java.util.regex.Matcher m = SCHEME_AND_HOST.matcher(text);
        if (m.lookingAt()) {
            String host = m.group(2).replaceFirst("^.*@", "***@");
            return m.group(1) + "://" + host + (text.length() > m.end() ? "/(hidden)" : "");
        }
        return "(hidden, " + text.length() + " characters)";
    }

    private Map<String, String> headers(JsonNode node, String at) {
        Map<String, String> headers = stringMap(node, at);
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (!HEADER_NAME.matcher(h.getKey()).matches()
                    || RESTRICTED_HEADERS.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                doc.problem(at + ": " + h.getKey() + " (expected: a header name other than Connection,"
                        + " Content-Length, Content-Type, Expect, Host, Upgrade)");
            }
            if (h.getValue().chars().anyMatch(c -> c == '\r' || c == '\n')) {
                doc.problem(at + "." + h.getKey() + ": (value hidden) (expected: a value without line breaks)");
            }
        }
        return headers;
    }

    private Duration duration(JsonNode node, String field, String at, Duration defaultValue, Duration min,
                              Duration max) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return defaultValue;
        }
        Duration d = v.isValueNode() ? Durations.parse(v.asText()) : null;
        if (d == null || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            doc.problem(at + "." + field + ": " + RoleFile.shown(v) + " (expected: " + Durations.EXPECTED + ", "
                    + Durations.show(min) + ".." + Durations.show(max) + ")");
            return defaultValue;
        }
        return d;
    }

    private boolean bool(JsonNode node, String field, String at, boolean defaultValue) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return defaultValue;
        }
        if (!v.isBoolean()) {
            doc.problem(at + "." + field + ": " + RoleFile.shown(v) + " (expected: true or false)");
            return defaultValue;
        }
        return v.booleanValue();
    }

    /** The target labels an Alertmanager route passes on: Prometheus label names, none of healthmesh's own. */
    private List<String> alertLabels(JsonNode node, RouteType type, String at) {
        Set<String> names = strings(node, at, Set.of());
        if (names.isEmpty()) {
            return List.of();
        }
        if (type != null && type != RouteType.ALERTMANAGER) {
            doc.problem(at + ": given for a " + type.fileName() + " route (expected: only on alertmanager routes)");
        }
        if (names.size() > MAX_ALERT_LABELS) {
            doc.problem(at + ": " + names.size() + " names (expected: at most " + MAX_ALERT_LABELS + ")");
        }
        for (String name : names) {
            if (!LABEL_NAME.matcher(name).matches() || name.startsWith("__")) {
                doc.problem(at + ": " + name + " (expected: a Prometheus label name, [a-zA-Z_][a-zA-Z0-9_]*, not __...)");
            } else if (RouteConfig.OWN_ALERT_LABELS.contains(name)) {
                doc.problem(at + ": " + name + " (expected: a name other than " + new java.util.TreeSet<>(
                        RouteConfig.OWN_ALERT_LABELS) + ", which healthmesh sets itself)");
            }
        }
        return List.copyOf(names);
    }

    private Set<String> strings(JsonNode node, String at, Set<String> defaultValue) {
        if (node == null || node.isNull()) {
            return defaultValue;
        }
        if (!node.isArray()) {
            doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a list of texts)");
            return defaultValue;
        }
        Set<String> values = new LinkedHashSet<>();
        for (JsonNode item : node) {
            if (!item.isValueNode() || item.asText().isBlank()) {
                doc.problem(at + ": " + RoleFile.shown(item) + " (expected: a non-empty text)");
            } else {
                values.add(item.asText().trim());
            }
        }
        return values;
    }

    private Map<String, String> stringMap(JsonNode node, String at) {
        Map<String, String> map = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return map;
        }
        if (!node.isObject()) {
            doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a mapping of texts)");
            return map;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                doc.problem(at + "." + e.getKey() + ": " + RoleFile.shown(e.getValue()) + " (expected: a text)");
            } else {
                map.put(e.getKey(), e.getValue().asText());
            }
        }
        return map;
    }
}
