package io.healthmesh.embedded;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import kafka.server.KafkaConfig;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Formats a KRaft storage directory the way {@code kafka-storage.sh format} does, through Kafka's own
 * {@link Formatter}: a new cluster id, the node id, the latest production metadata version and features.
 * A directory that already holds {@code meta.properties} is left alone, which is what makes a broker
 * restartable on the same directory with its topics and records.
 */
final class KraftStorage {

    private static final Logger LOG = LoggerFactory.getLogger(KraftStorage.class);
    static final String META_PROPERTIES = "meta.properties";

    private KraftStorage() {
    }

    /** Whether {@code dir} was formatted before (by this class or by {@code kafka-storage.sh}). */
    static boolean isFormatted(Path dir) {
        return Files.isRegularFile(dir.resolve(META_PROPERTIES));
    }

    /**
     * Formats {@code dir} for the broker described by {@code config} unless it is formatted already.
     *
     * @return whether this call formatted the directory
     */
    static boolean formatIfNeeded(KafkaConfig config, Path dir) throws Exception {
        return formatIfNeeded(config, dir, Uuid.randomUuid().toString());
    }

    /** The same with the cluster id given: every node of one cluster is formatted with the same. */
    static boolean formatIfNeeded(KafkaConfig config, Path dir, String clusterId) throws Exception {
        if (isFormatted(dir)) {
            LOG.debug("Reusing the formatted KRaft storage in {}", dir);
            return false;
        }
        // The formatter prints progress for a terminal; keep it out of stdout and in the debug log.
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(progress, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(out)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setClusterId(clusterId)
                    .setNodeId(config.nodeId())
                    .setControllerListenerName(BrokerProperties.CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .addDirectory(dir.toAbsolutePath().toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setIgnoreFormatted(true)
                    .run();
        }
        LOG.debug("Formatted KRaft storage: {}", progress.toString(StandardCharsets.UTF_8).trim());
        return true;
    }
}
