package io.healthmesh.cli.roles;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's {@code slowhttptest}, a client nobody here wrote, against the registry, an aggregator's query port and
 * the status page's event stream at once, in each of its modes: slow headers (slowloris), slow body (R-U-Dead-Yet)
 * and slow read. While each attack runs, a monitoring client from another address asks {@code /healthz} of the
 * aggregator (whose ops endpoints share the query port) and of the registry on a fresh connection every 100 ms:
 * every answer must be 200 and come within {@link #HEALTHZ_BOUND}. The attack is bounded: {@link #CONNECTIONS}
 * connections per server for {@link #ATTACK_SECONDS} seconds. Fails when {@code CI=true} and the tool is missing,
 * skips elsewhere. Prints, per mode, the most connections the tool held and the probes' latencies.
 */
@ExtendWith(KafkaExtension.class)
class SlowHttpIT {

    private static final int CONNECTIONS = 300;
    private static final int ATTACK_SECONDS = 12;
    private static final Duration HEALTHZ_BOUND = Duration.ofSeconds(2);
    private static final Pattern CONNECTED = Pattern.compile("connected:\\s+(\\d+)");

    private final TestKafka kafka;

    SlowHttpIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    private static boolean slowhttptestInstalled() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, "slowhttptest"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void healthzStaysAnswerableUnderEveryKindOfSlowClient(@TempDir Path dir) throws Exception {
        boolean installed = slowhttptestInstalled();
        if ("true".equals(System.getenv("CI"))) {
            assertThat(installed).as("slowhttptest is missing (apt-get install slowhttptest)").isTrue();
        }
        Assumptions.assumeTrue(installed, "slowhttptest not installed");

        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("application.id", kafka.uniqueTopic("slow-app"));
        s.put("topic.prefix", kafka.uniqueTopic("slow") + ".");
        s.put("state.dir", dir.resolve("state").toString());
        s.put("replication.factor", "1");
        s.put("replication.single.copy.allowed", "true");
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        s.put("partitions", "1");
        try (SchemaRegistryServer registry = SchemaRegistryServer.startInMemory("127.0.0.1", 0);
             AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(s))) {
            int registryPort = URI.create(registry.url()).getPort();
            int aggregatorPort = aggregator.httpPort();
            Await.until(Duration.ofSeconds(60), () -> healthz(aggregatorPort) == 200 && healthz(registryPort) == 200,
                    () -> "both servers answer /healthz");
            List<String> urls = List.of(registry.url() + "/subjects", "http://127.0.0.1:" + aggregatorPort + "/targets",
                    "http://127.0.0.1:" + aggregatorPort + "/status/events");
            List<String> report = new ArrayList<>();
            for (String mode : List.of("-H", "-B", "-X")) {
                report.add(attack(mode, urls, List.of(aggregatorPort, registryPort), dir));
            }
            report.forEach(System.out::println);
        }
    }

    /** Runs one mode against every URL at once while probing; the line that reports it. */
    private String attack(String mode, List<String> urls, List<Integer> probed, Path dir) throws Exception {
        List<Process> attacks = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            Path out = dir.resolve("slowhttptest" + mode + i + ".txt");
            outputs.add(out);
            List<String> command = new ArrayList<>(List.of("slowhttptest", mode, "-c", Integer.toString(CONNECTIONS),
                    "-r", "100", "-i", "2", "-l", Integer.toString(ATTACK_SECONDS), "-p", "2", "-u", urls.get(i)));
            if (mode.equals("-X")) {
                command.addAll(List.of("-k", "3", "-n", "2", "-w", "1", "-y", "16", "-z", "8"));
            }
            attacks.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start());
        }
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean attacking = new AtomicBoolean(true);
        Thread monitor = new Thread(() -> {
            while (attacking.get()) {
                for (int port : probed) {
                    long start = System.nanoTime();
                    int status = healthz(port);
                    long nanos = System.nanoTime() - start;
                    latencies.add(nanos);
                    if (status != 200 || nanos > HEALTHZ_BOUND.toNanos()) {
                        failures.add("port " + port + ": status " + status + " after " + nanos / 1_000_000 + " ms");
                    }
                }
                try {
                    Thread.sleep(100); // the probing interval, not a wait for a condition
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "healthz-monitor");
        monitor.start();
        try {
            for (Process p : attacks) {
                if (!p.waitFor(ATTACK_SECONDS + 30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        } finally {
            attacking.set(false);
            monitor.join(10_000);
            attacks.forEach(Process::destroyForcibly);
        }
        List<Integer> held = new ArrayList<>();
        for (Path out : outputs) {
            // the tool colours its status lines: the escapes go first
            String text = Files.readString(out, StandardCharsets.UTF_8).replaceAll("\u001B\\[[0-9;]*[A-Za-z]", "");
            Matcher m = CONNECTED.matcher(text);
            int most = 0;
            while (m.find()) {
                most = Math.max(most, Integer.parseInt(m.group(1)));
            }
            held.add(most);
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        assertThat(sorted.length).as("probes made during the attack").isGreaterThan(20);
        assertThat(failures).as("/healthz during slowhttptest " + mode).isEmpty();
        double p50 = sorted[sorted.length / 2] / 1e6;
        double p99 = sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6;
        return String.format("slowhttptest %s, %d connections x 3 servers, %d s: most connections held (registry,"
                        + " query API, status stream) %s; /healthz %d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                mode, CONNECTIONS, ATTACK_SECONDS, held, sorted.length, p50, p99, sorted[sorted.length - 1] / 1e6);
    }

    /** GET /healthz on a fresh connection from 127.0.0.2 (another client than the attacker); the status, -1 on failure. */
    private static int healthz(int port) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress("127.0.0.2", 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) HEALTHZ_BOUND.toMillis());
            socket.setSoTimeout((int) HEALTHZ_BOUND.toMillis());
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(12);
            return head.length == 12 ? Integer.parseInt(new String(head, 9, 3, StandardCharsets.US_ASCII)) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
