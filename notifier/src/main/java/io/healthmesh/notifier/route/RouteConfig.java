package io.healthmesh.notifier.route;

import io.healthmesh.notifier.domain.RoutePolicy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One validated route of the route file.
 *
 * @param type what kind of receiver
 * @param url the receiver's URL (for Alertmanager, its base URL; {@code /api/v2/alerts} is appended)
 * @param headers extra request headers (e.g. {@code Authorization}); never logged
 * @param timeout how long one delivery attempt may take
 * @param policy the filter and timing rules
 * @param alertLabels target labels (Prometheus-safe names) an Alertmanager route passes on as alert labels; none by
 *     default, since a definition writer chooses a target's labels and Alertmanager routes by them
 */
public record RouteConfig(RouteType type, URI url, Map<String, String> headers, Duration timeout, RoutePolicy policy,
                          List<String> alertLabels) {

    /** Labels healthmesh sets on every alert itself: a route cannot let a target's label take their place. */
    public static final Set<String> OWN_ALERT_LABELS = Set.of("alertname", "target", "group", "source");

    /** A route that passes no target label on. */
    public RouteConfig(RouteType type, URI url, Map<String, String> headers, Duration timeout, RoutePolicy policy) {
        this(type, url, headers, timeout, policy, List.of());
    }

    public RouteConfig {
        alertLabels = List.copyOf(alertLabels);
        requireNonNull(type, "type");
        requireNonNull(url, "url");
        headers = Map.copyOf(headers);
        requireNonNull(timeout, "timeout");
        requireNonNull(policy, "policy");
    }

    public String name() {
        return policy.route();
    }

    /** Where a notification is POSTed. */
    public URI endpoint() {
        if (type != RouteType.ALERTMANAGER) {
            return url;
        }
        String base = url.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/api/v2/alerts");
    }

    @Override
    public String toString() {
        // header values may be credentials, and so may a URL's path (a Slack webhook's is its secret) or user
        // info: only header names and the URL's scheme, host and port are shown
        String shown = url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + "/...";
        return "RouteConfig[name=" + name() + ", type=" + type.fileName() + ", url=" + shown + ", headers="
                + headers.keySet() + ", timeout=" + timeout + ", policy=" + policy
                + (alertLabels.isEmpty() ? "" : ", alertLabels=" + alertLabels) + "]";
    }
}
