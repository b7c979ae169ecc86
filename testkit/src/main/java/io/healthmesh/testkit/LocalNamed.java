package io.healthmesh.testkit;

import io.healthmesh.embedded.FreePorts;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real BIND 9 {@code named} (Debian's {@code bind9}) on a loopback port, with a configuration, zone files and TSIG
 * keys the test writes to a directory of its own: no recursion, every zone a primary that takes updates signed with
 * {@link #UPDATE_KEY}. {@link #READ_ONLY_KEY} is known to the server but may not update. Run as root, it drops to
 * the {@code bind} user (which then owns the directory); otherwise it runs as the current user. Used by the
 * {@code dns} role's tests and the DNS check's. Absent binary: the
 * test is skipped on a developer machine and fails in CI ({@code CI=true}), where {@code .ci/run} installs it.
 */
public final class LocalNamed implements AutoCloseable {

    public static final String UPDATE_KEY = "healthmesh-update.";
    public static final String READ_ONLY_KEY = "read-only.";
    private static final Duration READY = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private final String updateSecret;
    private final String readOnlySecret;
    private final List<String> command;
    private Process process;

    private LocalNamed(Path dir, int port, String updateSecret, String readOnlySecret, List<String> command) {
        this.dir = dir;
        this.port = port;
        this.updateSecret = updateSecret;
        this.readOnlySecret = readOnlySecret;
        this.command = command;
    }

    /** The binary, or a skipped (locally) / failed (CI) test. */
    public static Path binary() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin" + File.pathSeparator
                + "/sbin";
        Optional<Path> found = Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "named")).filter(Files::isExecutable).findFirst();
        if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("named is not installed; .ci/run installs bind9 with apt-get");
        }
        Assumptions.assumeTrue(found.isPresent(), "named not found on PATH (apt-get install bind9); skipped");
        return found.get();
    }

    /**
     * Writes the configuration and starts named, serving each zone of {@code zones} (name without the trailing dot
     * -> records of the zone file after its SOA and NS) and waiting until it answers.
     */
    public static LocalNamed start(Path parent, Map<String, String> zones) throws IOException, InterruptedException {
        Path binary = binary();
        Path dir = Files.createDirectories(parent.resolve("named"));
        String updateSecret = secret();
        String readOnlySecret = secret();
        StringBuilder conf = new StringBuilder();
        conf.append(key(UPDATE_KEY, updateSecret)).append(key(READ_ONLY_KEY, readOnlySecret));
        int port = FreePorts.one();
        conf.append("""
                options {
                    directory "%1$s";
                    listen-on port %2$d { 127.0.0.1; };
                    listen-on-v6 { none; };
                    recursion no;
                    notify no;
                    dnssec-validation no;
                    pid-file "%1$s/named.pid";
                    session-keyfile "%1$s/session.key";
                    managed-keys-directory "%1$s";
                };
                controls { };
                """.formatted(dir, port));
        for (Map.Entry<String, String> zone : zones.entrySet()) {
            Path file = dir.resolve(zone.getKey() + ".db");
            Files.writeString(file, zoneFile(zone.getKey(), zone.getValue()));
            conf.append("""
                    zone "%s" { type primary; file "%s"; allow-update { key "%s"; }; };
                    """.formatted(zone.getKey(), file, UPDATE_KEY));
        }
        Path confFile = Files.writeString(dir.resolve("named.conf"), conf.toString());
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-g", "-4", "-c", confFile.toString(), "-p",
                Integer.toString(port)));
        if ("root".equals(System.getProperty("user.name"))) {
            Optional<UserPrincipal> bind = unprivilegedUser();
            if (bind.isPresent()) {
                command.addAll(List.of("-u", bind.get().getName()));
                Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxr-xr-x"));
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path p : files.toList()) {
                        Files.setOwner(p, bind.get());
                    }
                }
            }
        }
        LocalNamed named = new LocalNamed(dir, port, updateSecret, readOnlySecret, command);
        named.launch();
        return named;
    }

    private static Optional<UserPrincipal> unprivilegedUser() throws IOException {
        try {
            return Optional.of(Path.of("/").getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName("bind"));
        } catch (UserPrincipalNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Starts named again with the same configuration and port (after {@link #stop}). */
    public void launch() throws IOException, InterruptedException {
        // the log is appended across restarts: only what this start writes says whether it is running
        Path logFile = dir.resolve("named.log");
        int logStart = Files.exists(logFile) ? log().length() : 0;
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("named.log").toFile())).start();
        try {
            // a named that exits while starting ends the wait at once
            Await.until(READY, () -> !process.isAlive() || answers(logStart), () -> "named answering");
        } catch (AssertionError e) {
            stop();
            throw new IllegalStateException("named did not start within " + READY + ": " + log(), e);
        }
        if (!process.isAlive()) {
            stop();
            throw new IllegalStateException("named did not start: " + log());
        }
    }

    /**
     * named prints "running" once every zone is loaded and it listens (it runs in the foreground, {@code -g}); only
     * the log written after {@code logStart} counts.
     */
    private boolean answers(int logStart) {
        String log = log();
        return log.length() > logStart && log.substring(logStart).lines().anyMatch(line -> line.endsWith(" running"));
    }

    /** Stops named (SIGTERM: it writes its journal and exits). */
    public void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Replaces a zone's file and removes its journal, as an operator restoring a zone from its file would. */
    public void resetZone(String zone, String records) throws IOException {
        Path file = dir.resolve(zone + ".db");
        Files.writeString(file, zoneFile(zone, records));
        Files.deleteIfExists(dir.resolve(zone + ".db.jnl"));
    }

    public int port() {
        return port;
    }

    public String server() {
        return "127.0.0.1:" + port;
    }

    /** The base64 secret of {@link #UPDATE_KEY}. */
    public String updateSecret() {
        return updateSecret;
    }

    /** The base64 secret of {@link #READ_ONLY_KEY}. */
    public String readOnlySecret() {
        return readOnlySecret;
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("named.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private static String zoneFile(String zone, String records) {
        return """
                $TTL 300
                @ IN SOA ns.%1$s. hostmaster.%1$s. 1 3600 600 86400 60
                @ IN NS ns.%1$s.
                ns IN A 127.0.0.1
                %2$s
                """.formatted(zone, records);
    }

    private static String key(String name, String secret) {
        return "key \"%s\" { algorithm hmac-sha256; secret \"%s\"; };%n".formatted(name, secret);
    }

    private static String secret() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getEncoder().encodeToString(bytes);
    }
}
