package io.healthmesh.notifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.notifier.TestReceiver.Received;
import io.healthmesh.schema.HealthStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The notifier against a real Alertmanager: a target that goes down is an active alert there, with the target's
 * labels and group and {@code startsAt} the time it went down; its recovery resolves it (gone from the active
 * alerts, and Alertmanager's own webhook says firing, then resolved).
 */
@ExtendWith(KafkaExtension.class)
class AlertmanagerIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    private JsonNode activeAlerts(LocalAlertmanager am) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/alerts"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return json.readTree(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aFlipIsAnAlertInAlertmanagerAndRecoveryResolvesIt(TestKafka kafka) throws Exception {
        LocalAlertmanager.binary();
        try (StateTopics state = new StateTopics(kafka, 3);
             TestReceiver amWebhook = TestReceiver.start(0);
             LocalAlertmanager am = LocalAlertmanager.start(dir, amWebhook.url("/from-alertmanager"))) {
            state.define("api-1", "api", Map.of("team", "payments", "app.tier", "web", "severity", "page"));
            String routes = "routes: [{name: am, type: alertmanager, url: '%s', repeat: 10s, labels: [team, app_tier]}]\n".formatted(am.url());
            try (NotifierWorker notifier = NotifierWorker.start(NotifierConfig.from(
                    NotifierSettings.of(kafka, state, "am", dir, routes)))) {
                Await.until(PATIENCE, notifier::ready, () -> "not ready");
                long since = Instant.now().minusSeconds(30).toEpochMilli() / 1000 * 1000;
                state.state("api-1", "api", HealthStatus.UNHEALTHY, since);
                Await.until(PATIENCE, () -> activeAlerts(am).size() == 1, () -> activeAlerts(am).toString());
                JsonNode alert = activeAlerts(am).get(0);
                assertThat(alert.at("/labels/alertname").asText()).isEqualTo("HealthmeshTargetDown");
                assertThat(alert.at("/labels/target").asText()).isEqualTo("api-1");
                assertThat(alert.at("/labels/group").asText()).isEqualTo("api");
                assertThat(alert.at("/labels/team").asText()).isEqualTo("payments");
                assertThat(alert.at("/labels/app_tier").asText()).isEqualTo("web");
                assertThat(alert.at("/labels").has("severity")).as("not in the route's labels").isFalse();
                assertThat(Instant.parse(alert.get("startsAt").asText())).isEqualTo(Instant.ofEpochMilli(since));
                assertThat(alert.at("/status/state").asText()).isEqualTo("active");
                assertThat(alert.at("/annotations/summary").asText()).contains("api-1", "UNHEALTHY");

                state.state("api-1", "api", HealthStatus.HEALTHY, since + 20_000);
                Await.until(PATIENCE, () -> activeAlerts(am).isEmpty(), () -> activeAlerts(am).toString());
                Await.until(PATIENCE, () -> statuses(amWebhook).contains("resolved"), () -> statuses(amWebhook).toString());
                assertThat(statuses(amWebhook)).as("Alertmanager notified once of each").containsExactly("firing",
                        "resolved");
                JsonNode resolved = amWebhook.accepted().get(1).body().at("/alerts/0");
                assertThat(Instant.parse(resolved.get("endsAt").asText())).isEqualTo(Instant.ofEpochMilli(since + 20_000));
            }
        }
    }

    private static List<String> statuses(TestReceiver receiver) {
        List<String> out = new ArrayList<>();
        for (Received r : receiver.accepted()) {
            out.add(r.body().path("status").asText());
        }
        return out;
    }
}
