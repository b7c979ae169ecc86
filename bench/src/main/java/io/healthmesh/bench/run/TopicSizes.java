package io.healthmesh.bench.run;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Bytes on the broker's disk and records (offsets from log start to end, transaction markers included) of every
 * topic of the run, read with {@link Admin#describeLogDirs} and {@link Admin#listOffsets}: what the compacted topics
 * cost per target before the cleaner has run (an upper bound of what they keep).
 */
public final class TopicSizes {

    /** One topic's size; {@code largestRecord} is the key and value bytes of its largest record, -1 when not read. */
    public record Size(String topic, long bytes, long records, int largestRecord) {

        public double bytesPerRecord() {
            return records == 0 ? Double.NaN : (double) bytes / records;
        }
    }

    private TopicSizes() {
    }

    public static Map<String, Size> read(Admin admin) throws Exception {
        var brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(n -> n.id()).toList();
        Map<String, Long> bytes = new TreeMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions()
                .get(30, TimeUnit.SECONDS).values()) {
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> r : dir.replicaInfos().entrySet()) {
                    if (r.getKey().topic().startsWith("__")) {
                        continue;
                    }
                    bytes.merge(r.getKey().topic(), r.getValue().size(), Long::sum);
                    earliest.put(r.getKey(), OffsetSpec.earliest());
                    latest.put(r.getKey(), OffsetSpec.latest());
                }
            }
        }
        Map<String, Long> records = new HashMap<>();
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> records.merge(tp.topic(), info.offset(), Long::sum));
        admin.listOffsets(earliest).all().get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> records.merge(tp.topic(), -info.offset(), Long::sum));
        Map<String, Size> sizes = new TreeMap<>();
        bytes.forEach((topic, b) -> sizes.put(topic, new Size(topic, b, records.getOrDefault(topic, 0L), -1)));
        return sizes;
    }

    /**
     * The same, with the largest record of each topic whose name contains {@code scanned} read from the broker (key
     * and value bytes, uncompressed; every record read from the start, within {@code budget} in all): what the
     * 256 KiB bound on a record's size is checked against on a real broker.
     */
    public static Map<String, Size> read(Admin admin, String bootstrapServers, String scanned, Duration budget)
            throws Exception {
        Map<String, Size> sizes = read(admin);
        List<String> topics = sizes.keySet().stream().filter(t -> t.contains(scanned)).toList();
        Map<String, Integer> largest = largestRecords(bootstrapServers, topics, budget);
        Map<String, Size> out = new TreeMap<>();
        sizes.forEach((topic, size) -> out.put(topic, new Size(topic, size.bytes(), size.records(),
                largest.getOrDefault(topic, -1))));
        return out;
    }

    static Map<String, Integer> largestRecords(String bootstrapServers, List<String> topics, Duration budget) {
        Map<String, Integer> largest = new HashMap<>();
        if (topics.isEmpty()) {
            return largest;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + budget.toNanos();
            while (System.nanoTime() < deadline && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    int size = Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
                    largest.merge(r.topic(), size, Math::max);
                }
            }
        }
        return largest;
    }

    /** The sizes as a Markdown table. */
    public static String markdown(Map<String, Size> sizes) {
        StringBuilder t = new StringBuilder("| topic | bytes on disk | records (log start to end) | bytes per record |"
                + " largest record (key + value, B) |\n|---|---|---|---|---|\n");
        sizes.values().forEach(s -> t.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f | %s |%n", s.topic(),
                s.bytes(), s.records(), s.bytesPerRecord(),
                s.largestRecord() < 0 ? "not read" : Integer.toString(s.largestRecord()))));
        return t.toString();
    }
}
