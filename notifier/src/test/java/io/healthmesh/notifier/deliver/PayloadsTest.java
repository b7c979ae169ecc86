package io.healthmesh.notifier.deliver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.notifier.domain.AlertKey;
import io.healthmesh.notifier.domain.Notification;
import io.healthmesh.notifier.domain.Notification.Type;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.notifier.domain.Position;
import io.healthmesh.notifier.route.RouteType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PayloadsTest {

    private static final long START = Instant.parse("2026-12-01T08:00:00Z").toEpochMilli();
    private final Observation down = new Observation(AlertKey.target("api-1"), new Position("hs", 0, 7), "api",
            Map.of("team", "payments", "app.kubernetes.io/name", "api", "alertname", "mine"), "UNHEALTHY", START,
            "CONNECT_REFUSED", "connection refused");

    private static JsonNode json(byte[] body) throws Exception {
        return new ObjectMapper().readTree(body);
    }

    @Test
    void webhookCarriesTheKeyTheAlertAndItsTimes() throws Exception {
        Notification n = new Notification("ops", Type.RESOLVED, down.key(), START, START + 60_000, 0, down,
                down.position(), START);
        JsonNode body = json(Payloads.body(RouteType.WEBHOOK, n, Instant.ofEpochMilli(START + 61_000)));
        assertThat(body.get("id").asText()).isEqualTo(n.idempotencyKey());
        assertThat(body.get("type").asText()).isEqualTo("resolved");
        assertThat(body.at("/alert/id").asText()).isEqualTo("api-1");
        assertThat(body.at("/alert/labels/team").asText()).isEqualTo("payments");
        assertThat(body.get("startsAt").asText()).isEqualTo("2026-12-01T08:00:00Z");
        assertThat(body.get("endsAt").asText()).isEqualTo("2026-12-01T08:01:00Z");
    }

    @Test
    void alertmanagerGetsLabelsStartsAtAndEndsAtOnlyWhenResolved() throws Exception {
        Notification firing = new Notification("am", Type.FIRING, down.key(), START, -1, 0, down, null, START);
        JsonNode alert = json(Payloads.body(RouteType.ALERTMANAGER, java.util.List.of("team", "app_kubernetes_io_name"),
                firing, Instant.now())).get(0);
        assertThat(alert.at("/labels/alertname").asText()).isEqualTo(Payloads.TARGET_ALERT);
        assertThat(alert.at("/labels/target").asText()).isEqualTo("api-1");
        assertThat(alert.at("/labels/group").asText()).isEqualTo("api");
        assertThat(alert.at("/labels/team").asText()).isEqualTo("payments");
        assertThat(alert.at("/labels/app_kubernetes_io_name").asText()).isEqualTo("api");
        assertThat(alert.get("startsAt").asText()).isEqualTo("2026-12-01T08:00:00Z");
        assertThat(alert.has("endsAt")).isFalse();
        Notification resolved = new Notification("am", Type.RESOLVED, down.key(), START, START + 5_000, 0, down,
                null, START);
        assertThat(json(Payloads.body(RouteType.ALERTMANAGER, resolved, Instant.now())).get(0).get("endsAt").asText())
                .isEqualTo("2026-12-01T08:00:05Z");
    }

    @Test
    void slackTextSaysWhatHappened() throws Exception {
        Notification n = new Notification("chat", Type.FIRING, down.key(), START, -1, 0, down, null, START);
        assertThat(json(Payloads.body(RouteType.SLACK, n, Instant.now())).get("text").asText())
                .contains("FIRING", "api-1", "UNHEALTHY", "CONNECT_REFUSED");
    }

    @Test
    void labelNamesArePrometheusSafe() {
        assertThat(Payloads.labelName("team")).isEqualTo("team");
        assertThat(Payloads.labelName("a.b-c")).isEqualTo("a_b_c");
        assertThat(Payloads.labelName("9lives")).isEqualTo("_9lives");
        assertThat(Payloads.labelName("__reserved")).isNull();
    }

    @Test
    void slackTextEscapesWhatADefinitionWriterChose() throws Exception {
        Observation hostile = new Observation(AlertKey.target("<!channel>"), new Position("hs", 0, 8),
                "<https://evil.example|click here>", Map.of(), "UNHEALTHY", START, "UNEXPECTED_RESPONSE",
                "status 500 & <@U123>");
        Notification n = new Notification("chat", Type.FIRING, hostile.key(), START, -1, 0, hostile, null, START);
        String text = json(Payloads.body(RouteType.SLACK, n, Instant.now())).get("text").asText();
        assertThat(text).doesNotContain("<!channel>").doesNotContain("<https://").doesNotContain("<@U123>")
                .contains("&lt;!channel&gt;", "&lt;https://evil.example|click here&gt;", "status 500 &amp; &lt;@U123&gt;");
        // Alertmanager's summary is plain text: no Slack entities there
        String summary = json(Payloads.body(RouteType.ALERTMANAGER, n, Instant.now())).get(0).at("/annotations/summary").asText();
        assertThat(summary).contains("<!channel>").doesNotContain("&lt;");
    }

    @Test
    void alertmanagerTakesTargetLabelsOnlyThroughTheRoutesAllowList() throws Exception {
        Observation routed = new Observation(AlertKey.target("api-1"), new Position("hs", 0, 9), "api",
                Map.of("severity", "page-everyone", "team", "payments", "alertname", "Mine", "target", "other",
                        "group", "other", "source", "other"), "UNHEALTHY", START, "CONNECT_REFUSED", "refused");
        Notification n = new Notification("am", Type.FIRING, routed.key(), START, -1, 0, routed, null, START);
        JsonNode byDefault = json(Payloads.body(RouteType.ALERTMANAGER, n, Instant.now())).get(0).get("labels");
        assertThat(byDefault.has("severity")).as("a definition writer cannot route pages by default").isFalse();
        assertThat(byDefault.has("team")).isFalse();
        JsonNode allowed = json(Payloads.body(RouteType.ALERTMANAGER, java.util.List.of("team", "alertname", "target"), n,
                Instant.now())).get(0).get("labels");
        assertThat(allowed.get("team").asText()).isEqualTo("payments");
        assertThat(allowed.has("severity")).isFalse();
        assertThat(allowed.get("alertname").asText()).isEqualTo(Payloads.TARGET_ALERT);
        assertThat(allowed.get("target").asText()).isEqualTo("api-1");
        assertThat(allowed.get("group").asText()).isEqualTo("api");
        assertThat(allowed.get("source").asText()).isEqualTo("healthmesh");
    }
}
