package io.healthmesh.embedded;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where an {@link EmbeddedKafka} broker keeps its data and where its client listener binds.
 *
 * @param dataDir the broker's storage directory (log segments and KRaft metadata); {@code null} means a
 *     temporary directory that is deleted when the broker closes. A given directory is formatted on first
 *     use and kept, so a broker started again on it finds its topics and records.
 * @param host the address the client (PLAINTEXT) listener binds to and advertises; a wildcard address
 *     ({@code 0.0.0.0}, {@code ::}) binds every interface and advertises the loopback address
 * @param port the client listener's port; {@code 0} picks a free port
 */
public record EmbeddedKafkaConfig(Path dataDir, String host, int port) {

    /** The loopback address, which keeps a test or demo broker unreachable from other machines. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    public EmbeddedKafkaConfig {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host: '' (expected: a host name or IP address)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0..65535, 0 = a free port)");
        }
    }

    /** A temporary data directory, the loopback address and a free port. */
    public static EmbeddedKafkaConfig defaults() {
        return new EmbeddedKafkaConfig(null, DEFAULT_HOST, 0);
    }

    /** This configuration with its data kept in {@code dir} (formatted on first use, reused afterwards). */
    public EmbeddedKafkaConfig withDataDir(Path dir) {
        return new EmbeddedKafkaConfig(Objects.requireNonNull(dir, "dir"), host, port);
    }

    /** This configuration with the client listener on {@code newPort} ({@code 0} = a free port). */
    public EmbeddedKafkaConfig withPort(int newPort) {
        return new EmbeddedKafkaConfig(dataDir, host, newPort);
    }

    /** This configuration with the client listener bound to {@code newHost}. */
    public EmbeddedKafkaConfig withHost(String newHost) {
        return new EmbeddedKafkaConfig(dataDir, newHost, port);
    }
}
