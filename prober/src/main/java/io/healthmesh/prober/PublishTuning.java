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
 * The linger is 20 ms: against 10 it takes about 1.4 µs of the prober's CPU off each probe at 16,000 probes a second
 * (fewer batches, so fewer compressor set-ups and fewer producer requests). What a longer linger used to cost, a later
 * state event, {@code publish.urgent} takes away: the results that may change a target's state are sent at once and
 * only the results repeating a settled state wait (docs/BENCHMARKS.md, "Detection and probe -> event").
 * A {@code kafka.compression.type}, {@code kafka.linger.ms} or {@code kafka.batch.size} pass-through, if also given,
 * wins over these.
 *
 * @param compression the producer's {@code compression.type}: {@code none}, {@code gzip}, {@code snappy},
 *     {@code lz4} or {@code zstd}
 * @param lingerMs the producer's {@code linger.ms}: how long a batch waits for more results (adds to the time from a
 *     probe to its state event)
 * @param batchBytes the producer's {@code batch.size}: the most bytes of one partition's batch
 * @param urgent whether a result that may change its target's state (among the first threshold-many verdicts of one
 *     kind in a row) is sent at once instead of after the linger
 */
public record PublishTuning(String compression, int lingerMs, int batchBytes, boolean urgent) {

    public static final String DEFAULT_COMPRESSION = "lz4";
    public static final int DEFAULT_LINGER_MS = 20;
    public static final boolean DEFAULT_URGENT = true;
    public static final int DEFAULT_BATCH_BYTES = 16_384;
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    static final Setting<String> COMPRESSION = Setting.oneOf("publish.compression", DEFAULT_COMPRESSION, CODECS,
            "Compression of the probe-results batches (the producer's compression.type); every codec is "
                    + "read by the Java, librdkafka (Node, Python) and Go clients.")
            .documentedAs(DEFAULT_COMPRESSION, "none, gzip, snappy, lz4 or zstd");
    static final Setting<Integer> LINGER_MS = Setting.integer("publish.linger.ms", DEFAULT_LINGER_MS, 0, 1_000,
            "How long a batch of results waits for more before it is sent (linger.ms): larger batches "
                    + "cost the prober and the broker less CPU and compress better, but a result reaches Kafka "
                    + "up to this later (unless publish.urgent sends it at once).");
    static final Setting<Integer> BATCH_BYTES = Setting.integer("publish.batch.bytes", DEFAULT_BATCH_BYTES, 1_024,
            16_777_216, "The most bytes of one partition's batch (batch.size); a full batch is sent without waiting.");
    static final Setting<Boolean> URGENT = Setting.bool("publish.urgent", DEFAULT_URGENT,
            "Send a result that may change its target's state (one of the first healthy/unhealthy-threshold "
                    + "verdicts of one kind in a row) at once, without the linger; false lets every result "
                    + "wait for publish.linger.ms.");

    /** The settings this record reads, for {@link ProberConfig#SETTINGS}. */
    static final List<Setting<?>> SETTINGS = List.of(COMPRESSION, LINGER_MS, BATCH_BYTES, URGENT);

    public PublishTuning {
        requireNonNull(compression, "compression");
        COMPRESSION.check(compression);
        LINGER_MS.check(lingerMs);
        BATCH_BYTES.check(batchBytes);
    }

    /** The given batching, with results that may decide a state sent at once ({@code publish.urgent}'s default). */
    public PublishTuning(String compression, int lingerMs, int batchBytes) {
        this(compression, lingerMs, batchBytes, DEFAULT_URGENT);
    }

    /** Every default. */
    public static PublishTuning defaults() {
        return new PublishTuning(DEFAULT_COMPRESSION, DEFAULT_LINGER_MS, DEFAULT_BATCH_BYTES, DEFAULT_URGENT);
    }

    static PublishTuning read(SettingsReader r) {
        return new PublishTuning(r.get(COMPRESSION), r.get(LINGER_MS), r.get(BATCH_BYTES), r.get(URGENT));
    }

    /** The producer properties these settings stand for. */
    public Map<String, Object> producerProperties() {
        return Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                ProducerConfig.LINGER_MS_CONFIG, Integer.toString(lingerMs),
                ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(batchBytes));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "publish[compression=%s, linger.ms=%d, batch.bytes=%d, urgent=%s]",
                compression, lingerMs, batchBytes, urgent);
    }
}
