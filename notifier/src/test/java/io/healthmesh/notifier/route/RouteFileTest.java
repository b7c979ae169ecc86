package io.healthmesh.notifier.route;

import io.healthmesh.notifier.domain.RouteFilter;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouteFileTest {

    @Test
    void readsYamlWithEveryFieldAndDefaults() {
        List<RouteConfig> routes = RouteFile.parse("""
                routes:
                  - name: ops
                    type: webhook
                    url: https://hooks.example.com/healthmesh
                    headers: {Authorization: "Bearer s3cret"}
                    timeout: 5s
                    minDuration: 30s
                    repeat: 1h
                    resolved: false
                    filter:
                      groups: [api, web]
                      labels: {team: payments}
                      statuses: [UNHEALTHY, DETECTING]
                      failOpen: false
                  - name: am
                    type: alertmanager
                    url: http://127.0.0.1:9093/
                """);
        RouteConfig ops = routes.get(0);
        assertThat(ops.type()).isEqualTo(RouteType.WEBHOOK);
        assertThat(ops.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(ops.policy().minDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(ops.policy().repeat()).isEqualTo(Duration.ofHours(1));
        assertThat(ops.policy().resolved()).isFalse();
        assertThat(ops.policy().filter()).isEqualTo(new RouteFilter(Set.of("api", "web"), Map.of("team", "payments"),
                Set.of("UNHEALTHY", "DETECTING"), false));
        assertThat(ops.toString()).contains("Authorization", "https://hooks.example.com/...")
                .doesNotContain("s3cret", "/healthmesh");
        RouteConfig am = routes.get(1);
        assertThat(am.endpoint().toString()).isEqualTo("http://127.0.0.1:9093/api/v2/alerts");
        assertThat(am.policy().repeat()).isEqualTo(RouteFile.DEFAULT_ALERTMANAGER_REPEAT);
        assertThat(am.policy().filter()).isEqualTo(RouteFilter.DEFAULT);
        assertThat(am.policy().resolved()).isTrue();
        assertThat(am.timeout()).isEqualTo(RouteFile.DEFAULT_TIMEOUT);
    }

    @Test
    void readsJson() {
        List<RouteConfig> routes = RouteFile.parse("""
                {"routes": [{"name": "chat", "type": "slack", "url": "https://hooks.slack.example/T/B/X"}]}
                """);
        assertThat(routes).singleElement().satisfies(r -> assertThat(r.type()).isEqualTo(RouteType.SLACK));
    }

    @Test
    void reportsEveryProblemAtOnceWithTheExpectedValues() {
        assertThatThrownBy(() -> RouteFile.parse("""
                routes:
                  - name: "bad name"
                    type: email
                    url: ftp://x
                    timeout: 5 minutes
                    minDuration: -1s
                    repeat: 10ms
                    resolved: maybe
                    colour: red
                    headers: {Host: evil}
                    filter: {statuses: [DOWN], labels: [a]}
                  - name: ok
                    type: webhook
                  - name: ok
                    type: webhook
                    url: http://x
                """))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("routes[0].name: bad name (expected: 1-64 of [A-Za-z0-9._-])")
                .hasMessageContaining("routes[0].type: email (expected: webhook, slack or alertmanager)")
                .hasMessageContaining("routes[0].url: ftp://x (expected: an http:// or https:// URL with a host)")
                .hasMessageContaining("routes[0].timeout: 5 minutes (expected: a duration")
                .hasMessageContaining("routes[0].minDuration: -1s (expected: a duration")
                .hasMessageContaining("routes[0].repeat: 10ms (expected: 0 or 1s..7d)")
                .hasMessageContaining("routes[0].resolved: maybe (expected: true or false)")
                .hasMessageContaining("routes[0].colour: unknown field")
                .hasMessageContaining("routes[0].headers: Host (expected: a header name other than")
                .hasMessageContaining("routes[0].filter.statuses: DOWN (expected: HEALTHY, UNHEALTHY, DETECTING or DISABLED)")
                .hasMessageContaining("routes[0].filter.labels: [\"a\"] (expected: a mapping of texts)")
                .hasMessageContaining("routes[1].url: missing (expected: a value, this field is required)")
                .hasMessageContaining("routes[2].name: ok (expected: a name no other route has)");
    }

    @Test
    void rejectsAnEmptyOrMalformedFile() {
        assertThatThrownBy(() -> RouteFile.parse("routes: []"))
                .hasMessageContaining("routes: [] (expected: a list of 1..100 routes)");
        assertThatThrownBy(() -> RouteFile.parse("routes: [ {"))
                .hasMessageContaining("route file: not YAML or JSON");
        assertThatThrownBy(() -> RouteFile.parse("- a\n- b\n"))
                .hasMessageContaining("(expected: a mapping with a routes list)");
        assertThatThrownBy(() -> RouteFile.parse("routes: [{name: a, type: webhook, url: 'http://x'}]\nextra: 1\n"))
                .hasMessageContaining("extra: unknown field");
    }

    @Test
    void durations() {
        assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(Durations.parse("5")).isNull();
        assertThat(Durations.parse("1.5s")).isNull();
    }

    @Test
    void alertmanagerRoutesNameTheTargetLabelsTheyPassOn() {
        List<RouteConfig> routes = RouteFile.parse("""
                routes:
                  - {name: am, type: alertmanager, url: 'http://am:9093', labels: [team, env]}
                  - {name: hook, type: webhook, url: 'http://h/'}
                """);
        assertThat(routes.get(0).alertLabels()).containsExactly("team", "env");
        assertThat(routes.get(1).alertLabels()).isEmpty();
        assertThatThrownBy(() -> RouteFile.parse("""
                routes:
                  - {name: am, type: alertmanager, url: 'http://am:9093', labels: [alertname, 'a.b', __x]}
                  - {name: s, type: slack, url: 'https://hooks.example/services/SECRET-PATH', labels: [team]}
                  - {name: t, type: slack, url: 'hooks.example/services/OTHER-SECRET'}
                """))
                .hasMessageContaining("routes[0].labels: alertname (expected: a name other than [alertname, group, source, target]")
                .hasMessageContaining("routes[0].labels: a.b (expected: a Prometheus label name")
                .hasMessageContaining("routes[0].labels: __x (expected: a Prometheus label name")
                .hasMessageContaining("routes[1].labels: given for a slack route (expected: only on alertmanager routes)")
                .hasMessageContaining("routes[2].url: (hidden, 35 characters) (expected: an http:// or https:// URL")
                .hasMessageNotContaining("OTHER-SECRET");
    }
}
