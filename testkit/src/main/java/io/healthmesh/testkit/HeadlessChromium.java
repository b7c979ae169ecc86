package io.healthmesh.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.embedded.FreePorts;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The system's Chromium (Debian's {@code chromium} and {@code chromium-driver}), headless, driven over the W3C
 * WebDriver protocol that {@code chromedriver} speaks: a few JSON calls with the JDK's HTTP client, so no browser or
 * driver is ever downloaded and no WebDriver library is needed. {@link #close()} ends the session and the driver.
 * Used by the status page's browser tests ({@code status}'s load test, {@code pipeline}'s end-to-end one).
 */
public final class HeadlessChromium implements AutoCloseable {

    public static final Path CHROMIUM = Path.of(System.getProperty("healthmesh.chromium", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER = Path.of(System.getProperty("healthmesh.chromedriver", "/usr/bin/chromedriver"));
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private final Process driver;
    private final String base;
    private final Path profile;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();
    private String session;

    private HeadlessChromium(Process driver, String base, Path profile) {
        this.driver = driver;
        this.base = base;
        this.profile = profile;
    }

    /** Whether both binaries are installed. */
    public static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /**
     * For a test's {@code @BeforeAll}: skips the test without Chromium on a developer machine, fails it in CI
     * ({@code CI=true}), where the browser must be installed.
     */
    public static void assumeInstalled() {
        if (installed()) {
            return;
        }
        String message = CHROMIUM + " or " + CHROMEDRIVER + " is missing (apt-get install chromium chromium-driver)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(message + "; CI must install them (.ci/run)");
        }
        Assumptions.abort(message);
    }

    /** Starts chromedriver and a headless browser session with a fresh profile in {@code workDir}. */
    public static HeadlessChromium start(Path workDir, int width, int height) throws IOException {
        int port = FreePorts.pick(InetAddress.getLoopbackAddress(), 1)[0];
        Path log = workDir.resolve("chromedriver.log");
        Process driver = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port, "--allowed-ips=127.0.0.1",
                "--log-path=" + log).redirectErrorStream(true).redirectOutput(workDir.resolve("chromedriver.out")
                .toFile()).start();
        HeadlessChromium browser = new HeadlessChromium(driver, "http://127.0.0.1:" + port,
                Files.createDirectories(workDir.resolve("profile")));
        try {
            Await.until(Duration.ofSeconds(30), browser::driverReady, () -> "chromedriver did not answer on " + port);
            browser.newSession(width, height);
            return browser;
        } catch (IOException | RuntimeException | Error e) {
            browser.close();
            throw e;
        }
    }

    private boolean driverReady() {
        try {
            JsonNode status = call("GET", "/status", null);
            return status.path("ready").asBoolean(false);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private void newSession(int width, int height) throws IOException {
        ObjectNode options = json.createObjectNode();
        options.put("binary", CHROMIUM.toString());
        List<String> args = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        args.forEach(options.putArray("args")::add);
        ObjectNode body = json.createObjectNode();
        ObjectNode always = body.putObject("capabilities").putObject("alwaysMatch");
        always.put("browserName", "chrome");
        always.set("goog:chromeOptions", options);
        session = call("POST", "/session", body).path("sessionId").asText();
        if (session.isEmpty()) {
            throw new IllegalStateException("chromedriver created no session");
        }
    }

    /** Opens {@code url} and returns once the page has loaded. */
    public void open(String url) throws IOException {
        ObjectNode body = json.createObjectNode().put("url", url);
        call("POST", "/session/" + session + "/url", body);
    }

    /** Runs {@code script} (a function body; {@code arguments} holds {@code args}) and returns its value. */
    public JsonNode execute(String script, Object... args) throws IOException {
        ObjectNode body = json.createObjectNode().put("script", script);
        body.set("args", json.valueToTree(List.of(args)));
        return call("POST", "/session/" + session + "/execute/sync", body);
    }

    /** {@link #execute} whose value is a string, when it is one. */
    public Optional<String> string(String script, Object... args) {
        try {
            JsonNode value = execute(script, args);
            return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes a PNG of the viewport to {@code file}. */
    public void screenshot(Path file) throws IOException {
        String png = call("GET", "/session/" + session + "/screenshot", null).asText();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(png));
    }

    private JsonNode call(String method, String path, JsonNode body) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(CALL_TIMEOUT)
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        JsonNode answer = json.readTree(response.body());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("webdriver " + method + " " + path + ": " + response.statusCode() + " "
                    + answer.path("value").path("message").asText(response.body()));
        }
        return answer.path("value");
    }

    /** Ends the session and the driver; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (!driver.isAlive() && session == null) {
            return;
        }
        try {
            if (session != null) {
                String ending = session;
                session = null;
                call("DELETE", "/session/" + ending, null);
            }
        } catch (IOException | RuntimeException e) {
            // the driver goes anyway
        } finally {
            driver.descendants().forEach(ProcessHandle::destroyForcibly);
            driver.destroyForcibly();
            try {
                driver.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
