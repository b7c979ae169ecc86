package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.notifier.NotifierConfig;
import io.healthmesh.notifier.NotifierWorker;
import io.healthmesh.schema.HealthStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole chain: a real backend stops answering, a real prober and aggregator turn its target UNHEALTHY, and a
 * notifier delivers one firing per route to a real HTTP receiver; the backend answers again and each route gets one
 * resolved message.
 */
@ExtendWith(KafkaExtension.class)
class NotificationsIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** What the receiver got: path and JSON body. */
    private record Got(String path, JsonNode body) {
    }

    @Test
    @Timeout(150)
    void aBackendThatStopsFiresOncePerRouteAndItsRecoveryResolves(TestKafka kafka) throws Exception {
        List<Got> got = new CopyOnWriteArrayList<>();
        ObjectMapper json = new ObjectMapper();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        receiver.createContext("/", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                got.add(new Got(exchange.getRequestURI().getPath(), json.readTree(in.readAllBytes())));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        receiver.start();
        String base = "http://127.0.0.1:" + receiver.getAddress().getPort();
        try (LoopbackHttpBackend backend = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(kafka, dir)) {
            pipeline.startProber("a", List.of());
            TargetSpec plain = TargetSpec.of("web-1", "web", backend.host(), backend.port(), Protocol.HTTP)
                    .withTiming(1_000, 500).withThresholds(2, 2);
            pipeline.define(new TargetSpec(plain.id(), plain.group(), plain.address(), plain.port(), plain.protocol(),
                    plain.intervalMs(), plain.timeoutMs(), plain.healthyThreshold(), plain.unhealthyThreshold(),
                    plain.enabled(), plain.weight(), Map.of("team", "web"), plain.http(), plain.udp(), plain.tcp(),
                    plain.regions(), plain.quorum(), plain.quorumAtLeast()));
            Path routes = Files.writeString(dir.resolve("routes.yaml"), """
                    routes:
                      - {name: hook, type: webhook, url: '%s/hook', filter: {labels: {team: web}, failOpen: false}}
                      - {name: chat, type: slack, url: '%s/chat', filter: {groups: [web], failOpen: false}}
                      - {name: other-team, type: webhook, url: '%s/other', filter: {labels: {team: db}, failOpen: false}}
                    """.formatted(base, base, base));
            Map<String, String> settings = new HashMap<>();
            settings.put("bootstrap.servers", kafka.bootstrapServers());
            settings.put("schema.registry.url", kafka.schemaRegistryUrl());
            settings.put("topic.prefix", pipeline.aggregatorConfig().topics().prefix());
            settings.put("group.id", "notifier-" + pipeline.aggregatorConfig().topics().prefix());
            settings.put("routes.file", routes.toString());
            settings.put("http.host", "127.0.0.1");
            settings.put("http.port", "0");
            try (NotifierWorker notifier = NotifierWorker.start(NotifierConfig.from(settings))) {
                Await.until(Pipeline.STARTUP, () -> notifier.ready() && pipeline.health().first("web-1",
                        t -> t.getStatus() == HealthStatus.HEALTHY).isPresent(), () -> "HEALTHY, notifier ready");

                backend.hang();
                Await.until(PATIENCE, () -> got.size() == 2, () -> "a firing on hook and on chat: " + got);
                Await.until(PATIENCE, () -> pipeline.health().first("web-1",
                        t -> t.getStatus() == HealthStatus.UNHEALTHY).isPresent(), () -> "the UNHEALTHY event");
                long since = pipeline.health().first("web-1", t -> t.getStatus() == HealthStatus.UNHEALTHY)
                        .orElseThrow().value().getSinceMs();
                backend.resume();
                Await.until(PATIENCE, () -> got.size() == 4, () -> "a resolved message on hook and on chat: " + got);

                assertThat(got).extracting(g -> g.path() + " " + type(g)).containsExactlyInAnyOrder(
                        "/hook firing", "/chat firing", "/hook resolved", "/chat resolved");
                JsonNode firing = got.stream().filter(g -> g.path().equals("/hook")).findFirst().orElseThrow().body();
                assertThat(firing.at("/alert/id").asText()).isEqualTo("web-1");
                assertThat(firing.at("/alert/labels/team").asText()).isEqualTo("web");
                assertThat(firing.at("/alert/status").asText()).isEqualTo("UNHEALTHY");
                assertThat(firing.get("startsAt").asText()).isEqualTo(Instant.ofEpochMilli(since).toString());
            }
        } finally {
            receiver.stop(0);
        }
    }

    private static String type(Got g) {
        if (g.body().has("type")) {
            return g.body().get("type").asText();
        }
        String text = g.body().path("text").asText();
        return text.contains("RESOLVED") ? "resolved" : text.contains("FIRING") ? "firing" : text;
    }
}
