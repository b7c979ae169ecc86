package io.healthmesh.notifier.route;

import java.util.Locale;

/** The kinds of receivers a route can deliver to. */
public enum RouteType {
    /** A generic JSON webhook: one JSON object per notification. */
    WEBHOOK,
    /** A Slack-compatible incoming webhook ({@code {"text": ...}}; Mattermost and Rocket.Chat accept it too). */
    SLACK,
    /** Prometheus Alertmanager's v2 API, {@code POST <url>/api/v2/alerts}. */
    ALERTMANAGER;

    /** The name used in the route file. */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
