package io.healthmesh.prober;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * How the prober's producer batches and compresses the probe results it publishes: the {@code publish.*} settings,
 * read by {@link ProberConfig#from}. The defaults come from the publishing-cost measurement of docs/BENCHMARKS.md
 * ("Publishing cost"): bytes on the wire and CPU (prober and broker) per published result for each codec and linger.
 * The linger stays 10 ms: 20 took about 1.4 µs of the prober's CPU off each probe at 16,000 probes a second (fewer
 * batches, so fewer compressor set-ups and fewer producer requests), but added about 7 ms from a probe to its state
 * event at p99; on a slower machine state detection-only runs missed the goal once in two at 20 and held it at 10,
 * though a full run there missed at both (BENCHMARKS.md, "Runs of 2026-12-05, day").
 * A {@code kafka.compression.type}, {@code kafka.linger.ms} or {@code kafka.batch.size} pass-through, if also given,
 * wins over these.
 *
 * @param compression the producer's {@code compression.type}: {@code none}, {@code gzip}, {@code snappy},
 *     {@code lz4} or {@code zstd}
 * @param lingerMs the producer's {@code linger.ms}: how long a batch waits for more results (adds to the time from a
 *     probe to its state event)
 * @param batchBytes the producer's {@code batch.size}: the most bytes of one partition's batch
 */
public record PublishTuning(String compression, int lingerMs, int batchBytes) {

    public static final String DEFAULT_COMPRESSION = "lz4";
    public static final int DEFAULT_LINGER_MS = 10;
    public static final int DEFAULT_BATCH_BYTES = 16_384;
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    /** The settings this record reads, for {@link ProberConfig#SETTINGS}. */
    static final List<Setting> SETTINGS = List.of(
            new Setting("publish.compression", DEFAULT_COMPRESSION, "none, gzip, snappy, lz4 or zstd",
                    "Compression of the probe-results batches (the producer's compression.type); every codec is "
                            + "read by the Java, librdkafka (Node, Python) and Go clients."),
            new Setting("publish.linger.ms", Integer.toString(DEFAULT_LINGER_MS), "0..1000",
                    "How long a batch of results waits for more before it is sent (linger.ms): larger batches "
                            + "compress better and cost the broker less, but each result reaches Kafka up to this later."),
            new Setting("publish.batch.bytes", Integer.toString(DEFAULT_BATCH_BYTES), "1024..16777216",
                    "The most bytes of one partition's batch (batch.size); a full batch is sent without waiting."));

    public PublishTuning {
        requireNonNull(compression, "compression");
        if (!CODECS.contains(compression)) {
            throw new IllegalArgumentException("publish.compression: " + compression
                    + " (expected: none, gzip, snappy, lz4 or zstd)");
        }
        if (lingerMs < 0 || lingerMs > 1_000) {
            throw new IllegalArgumentException("publish.linger.ms: " + lingerMs + " (expected: 0..1000)");
        }
        if (batchBytes < 1_024 || batchBytes > 16_777_216) {
            throw new IllegalArgumentException("publish.batch.bytes: " + batchBytes + " (expected: 1024..16777216)");
        }
    }

    /** Every default. */
    public static PublishTuning defaults() {
        return new PublishTuning(DEFAULT_COMPRESSION, DEFAULT_LINGER_MS, DEFAULT_BATCH_BYTES);
    }

    static PublishTuning read(SettingsReader r) {
        String codec = r.oneOf("publish.compression", DEFAULT_COMPRESSION, CODECS.toArray(String[]::new));
        int linger = r.integer("publish.linger.ms", DEFAULT_LINGER_MS, 0, 1_000);
        int batch = r.integer("publish.batch.bytes", DEFAULT_BATCH_BYTES, 1_024, 16_777_216);
        return new PublishTuning(CODECS.contains(codec) ? codec : DEFAULT_COMPRESSION, linger, batch);
    }

    /** The producer properties these settings stand for. */
    public Map<String, Object> producerProperties() {
        return Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                ProducerConfig.LINGER_MS_CONFIG, Integer.toString(lingerMs),
                ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(batchBytes));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "publish[compression=%s, linger.ms=%d, batch.bytes=%d]", compression,
                lingerMs, batchBytes);
    }
}
