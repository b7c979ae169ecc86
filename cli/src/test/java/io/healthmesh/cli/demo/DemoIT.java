package io.healthmesh.cli.demo;

import io.healthmesh.cli.AsyncCliRun;
import io.healthmesh.testkit.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code healthmesh demo} in-process on free ports for a bounded time: every demo target turns HEALTHY, the
 * flapping one goes UNHEALTHY and back, the all-failing group fails open; a second run on the same data directory
 * starts from the state the first one left.
 */
class DemoIT {

    private static final List<String> TARGETS =
            List.of("web-home", "web-flaky", "tcp-service", "udp-echo", "fragile-http", "fragile-tcp",
                    "clb-web", "edgeone-tcp", "nlb-udp", "ga-web");
    /**
     * The first run's bound, far beyond one down-and-up of web-flaky (20 s up, 12 s down) plus the stack's start: the
     * test stops the demo (as SIGTERM would) once it has seen what it waits for.
     */
    private static final Duration FIRST_RUN = Duration.ofSeconds(240);
    private static final Duration PATIENCE = Duration.ofSeconds(150);

    private static Pattern line(String target, String change) {
        return Pattern.compile("target " + Pattern.quote(target) + "\\s+group \\S+\\s+" + Pattern.quote(change));
    }

    /** The subjects of the registry named in the banner, as its JSON list. */
    private static String registeredSubjects(String banner) throws Exception {
        Matcher url = Pattern.compile("Schema registry   (http://\\S+)").matcher(banner);
        assertThat(url.find()).as(banner).isTrue();
        HttpResponse<String> subjects = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url.group(1) + "/subjects")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(subjects.statusCode()).isEqualTo(200);
        return subjects.body();
    }

    /** The status page named in the banner is served, in the demo's one process, and lists {@code target}. */
    private static void assertStatusPageShows(String banner, String target) throws Exception {
        Matcher url = Pattern.compile("Status page       (http://\\S+)").matcher(banner);
        assertThat(url.find()).as(banner).isTrue();
        assertThat(get(url.group(1)).statusCode()).isEqualTo(200);
        Await.until(Duration.ofSeconds(30), () -> get(url.group(1) + "snapshot").body().contains('"' + target + '"'),
                () -> target + " on the demo's status page");
    }

    private static HttpResponse<String> get(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void demoShowsDetectionFlappingAndFailOpenThenResumesOnItsDataDir(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("demo-data");
        AsyncCliRun first = AsyncCliRun.start("demo", "--kafka-port", "0", "--registry-port", "0",
                "--data-dir", data.toString(), "--duration", FIRST_RUN.toSeconds() + "s");
        first.awaitOut("Demo targets", PATIENCE);
        assertThat(registeredSubjects(first.out())).contains("healthmesh.targets-value",
                "healthmesh.probe-results-value", "healthmesh.health-state-value", "healthmesh.group-state-value");
        for (String target : TARGETS) {
            first.awaitMatch(line(target, "DETECTING -> HEALTHY"), PATIENCE);
        }
        assertStatusPageShows(first.out(), "web-home");
        first.awaitMatch(line("web-flaky", "HEALTHY -> UNHEALTHY"), PATIENCE);
        first.awaitMatch(line("web-flaky", "UNHEALTHY -> HEALTHY"), PATIENCE);
        first.awaitMatch(Pattern.compile("group  demo-fragile\\s+failOpen false -> true"), PATIENCE);
        assertThat(first.stop(PATIENCE)).as(first.err()).isZero();
        String out = first.out();
        assertThat(out).contains("Kafka bootstrap   127.0.0.1:", "Schema registry   http://127.0.0.1:",
                "Egress            loopback allowed for the demo (allow.list=127.0.0.0/8,::1/128)", "demo: stopped");
        assertThat(Files.exists(data.resolve("healthmesh.log"))).isTrue();

        AsyncCliRun second = AsyncCliRun.start("demo", "--kafka-port", "0", "--registry-port", "0",
                "--data-dir", data.toString(), "--duration", FIRST_RUN.toSeconds() + "s");
        second.awaitOut("watching for changes", PATIENCE);
        String resumed = second.out();
        for (String target : TARGETS) {
            assertThat(resumed).containsPattern(target + "\\s+unchanged");
            assertThat(resumed).containsPattern("target " + target + "\\s+group \\S+\\s+= \\w+ \\(current");
        }
        assertThat(resumed).containsPattern("target web-home\\s+group demo-web\\s+= HEALTHY \\(current");
        assertThat(second.stop(PATIENCE)).as(second.err()).isZero();
        assertThat(second.out()).contains("demo: stopped");
    }
}
