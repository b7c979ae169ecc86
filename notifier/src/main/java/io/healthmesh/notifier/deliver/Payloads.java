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
import java.util.Locale;
import java.util.Map;

/**
 * The body each kind of receiver gets for a notification. Webhook: one JSON object with the idempotency key as
 * {@code id}. Slack: {@code {"text": ...}}. Alertmanager: a one-alert list for {@code POST /api/v2/alerts}, with
 * {@code startsAt} the episode's start and, once resolved, {@code endsAt} its end; the labels are {@code alertname},
 * {@code target} or nothing, {@code group}, {@code source="healthmesh"} and the target's own labels (names made
 * Prometheus-safe; ours win a clash).
 */
public final class Payloads {

    /** Alert names in Alertmanager. */
    public static final String TARGET_ALERT = "HealthmeshTargetDown";
    public static final String GROUP_ALERT = "HealthmeshGroupFailOpen";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {
    }

    /** The JSON body for a route of this type. */
    public static byte[] body(RouteType type, Notification n, Instant sentAt) {
        Object body = switch (type) {
            case WEBHOOK -> webhook(n, sentAt);
            case SLACK -> JSON.createObjectNode().put("text", slackText(n));
            case ALERTMANAGER -> alertmanager(n);
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

    static String slackText(Notification n) {
        Observation s = n.state();
        String what = n.key().kind() == AlertKey.Kind.TARGET
                ? "target *" + n.key().id() + "* (group " + s.group() + ")"
                : "group *" + n.key().id() + "*";
        String since = Instant.ofEpochMilli(n.startMs()).toString();
        String reason = s.reason() == null ? "" : ": " + s.reason() + (s.detail() == null ? "" : " (" + s.detail() + ")");
        return switch (n.type()) {
            case FIRING -> ":rotating_light: FIRING " + what + " is " + s.status() + " since " + since + reason;
            case REMINDER -> ":repeat: STILL " + s.status() + " " + what + " since " + since + reason
                    + " (reminder " + n.reminder() + ")";
            case RESOLVED -> ":white_check_mark: RESOLVED " + what + " is "
                    + (s.status() == null ? "deleted" : s.status()) + " after "
                    + human(Duration.ofMillis(n.endMs() - n.startMs()));
        };
    }

    static ArrayNode alertmanager(Notification n) {
        ArrayNode alerts = JSON.createArrayNode();
        ObjectNode alert = alerts.addObject();
        Observation s = n.state();
        ObjectNode labels = alert.putObject("labels");
        for (Map.Entry<String, String> l : s.labels().entrySet()) {
            String name = labelName(l.getKey());
            if (name != null) {
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
        annotations.put("summary", slackText(n).replace("*", ""));
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
