package io.healthmesh.notifier.deliver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.notifier.domain.AlertKey;
import io.healthmesh.notifier.domain.Notification;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.notifier.route.RouteType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The body each kind of receiver gets for a notification. Webhook: one JSON object with the idempotency key as
 * {@code id} (Jackson escapes every string). Slack: {@code {"text": ...}}, every text a definition writer chose
 * escaped for mrkdwn so it can neither mention nor link. Alertmanager: a one-alert list for
 * {@code POST /api/v2/alerts}, with {@code startsAt} the episode's start and, once resolved, {@code endsAt} its end;
 * the labels are {@code alertname}, {@code target} or nothing, {@code group}, {@code source="healthmesh"} and those
 * of the target's own labels the route allows (names made Prometheus-safe; ours always win a clash), so a definition
 * writer cannot set routing labels such as {@code severity} unless the route's owner says so.
 */
public final class Payloads {

    /** Alert names in Alertmanager. */
    public static final String TARGET_ALERT = "HealthmeshTargetDown";
    public static final String GROUP_ALERT = "HealthmeshGroupFailOpen";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {
    }

    /** The JSON body for a route of this type that lets no target label into Alertmanager's labels. */
    public static byte[] body(RouteType type, Notification n, Instant sentAt) {
        return body(type, List.of(), n, sentAt);
    }

    /**
     * The JSON body for a route of this type.
     *
     * @param alertLabels the target labels (by their Prometheus-safe names) an Alertmanager route takes as labels
     */
    public static byte[] body(RouteType type, List<String> alertLabels, Notification n, Instant sentAt) {
        Object body = switch (type) {
            case WEBHOOK -> webhook(n, sentAt);
            case SLACK -> JSON.createObjectNode().put("text", text(n, Payloads::slackEscape, "*"));
            case ALERTMANAGER -> alertmanager(n, Set.copyOf(alertLabels));
        };
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    static ObjectNode webhook(Notification n, Instant sentAt) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", n.idempotencyKey());
        root.put("route", n.route());
        root.put("type", n.type().name().toLowerCase(Locale.ROOT));
        ObjectNode alert = root.putObject("alert");
        Observation s = n.state();
        alert.put("kind", n.key().kind().name().toLowerCase(Locale.ROOT));
        alert.put("id", n.key().id());
        alert.put("group", s.group());
        ObjectNode labels = alert.putObject("labels");
        s.labels().forEach(labels::put);
        alert.put("status", s.status() == null ? "DELETED" : s.status());
        alert.put("reason", s.reason());
        alert.put("detail", s.detail());
        root.put("startsAt", Instant.ofEpochMilli(n.startMs()).toString());
        root.put("endsAt", n.endMs() < 0 ? null : Instant.ofEpochMilli(n.endMs()).toString());
        root.put("reminder", n.reminder());
        root.put("sentAt", sentAt.toString());
        return root;
    }

    /**
     * One line saying what happened. Every text a definition writer chose (id, group, reason's detail) passes
     * {@code escape}; {@code bold} marks the id ({@code *} for Slack, nothing for plain text).
     */
    static String text(Notification n, UnaryOperator<String> escape, String bold) {
        Observation s = n.state();
        String id = bold + escape.apply(n.key().id()) + bold;
        String what = n.key().kind() == AlertKey.Kind.TARGET
                ? "target " + id + " (group " + escape.apply(s.group()) + ")"
                : "group " + id;
        String since = Instant.ofEpochMilli(n.startMs()).toString();
        String reason = s.reason() == null ? "" : ": " + escape.apply(s.reason())
                + (s.detail() == null ? "" : " (" + escape.apply(s.detail()) + ")");
        String status = s.status() == null ? null : escape.apply(s.status());
        return switch (n.type()) {
            case FIRING -> ":rotating_light: FIRING " + what + " is " + status + " since " + since + reason;
            case REMINDER -> ":repeat: STILL " + status + " " + what + " since " + since + reason
                    + " (reminder " + n.reminder() + ")";
            case RESOLVED -> ":white_check_mark: RESOLVED " + what + " is "
                    + (status == null ? "deleted" : status) + " after "
                    + human(Duration.ofMillis(n.endMs() - n.startMs()));
        };
    }

    /**
     * Text made inert for Slack's mrkdwn: Slack reads {@code <...>} as a link, a mention or {@code <!channel>}, and
     * asks for exactly {@code &}, {@code <} and {@code >} to be escaped as HTML entities; nothing else is.
     */
    static String slackEscape(String text) {
        if (text == null) {
            return null;
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static ArrayNode alertmanager(Notification n, Set<String> allowed) {
        ArrayNode alerts = JSON.createArrayNode();
        ObjectNode alert = alerts.addObject();
        Observation s = n.state();
        ObjectNode labels = alert.putObject("labels");
        // Alertmanager routes, groups and inhibits by label: only those the route allows come from the target
        for (Map.Entry<String, String> l : s.labels().entrySet()) {
            String name = labelName(l.getKey());
            if (name != null && allowed.contains(name)) {
                labels.put(name, l.getValue());
            }
        }
        labels.put("source", "healthmesh");
        labels.put("group", s.group());
        if (n.key().kind() == AlertKey.Kind.TARGET) {
            labels.put("alertname", TARGET_ALERT);
            labels.put("target", n.key().id());
        } else {
            labels.put("alertname", GROUP_ALERT);
            labels.remove("target");
        }
        ObjectNode annotations = alert.putObject("annotations");
        annotations.put("summary", text(n, UnaryOperator.identity(), ""));
        if (s.status() != null) {
            annotations.put("status", s.status());
        }
        if (s.reason() != null) {
            annotations.put("reason", s.reason());
        }
        if (s.detail() != null) {
            annotations.put("detail", s.detail());
        }
        alert.put("startsAt", Instant.ofEpochMilli(n.startMs()).toString());
        if (n.endMs() >= 0) {
            alert.put("endsAt", Instant.ofEpochMilli(n.endMs()).toString());
        }
        return alerts;
    }

    /** A Prometheus label name for a target label, or null when none can be made (reserved {@code __} names). */
    static String labelName(String key) {
        StringBuilder b = new StringBuilder(key.length() + 1);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
            b.append(ok ? c : '_');
        }
        if (!key.isEmpty() && key.charAt(0) >= '0' && key.charAt(0) <= '9') {
            b.insert(0, '_');
        }
        String name = b.toString();
        return name.isEmpty() || name.startsWith("__") ? null : name;
    }

    private static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s < 60 ? s + "s" : s < 3600 ? (s / 60) + "m" + (s % 60) + "s" : (s / 3600) + "h" + (s % 3600 / 60) + "m";
    }
}
