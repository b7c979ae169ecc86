package io.healthmesh.bench.run;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
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

    /** One topic's size. */
    public record Size(String topic, long bytes, long records) {

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
        bytes.forEach((topic, b) -> sizes.put(topic, new Size(topic, b, records.getOrDefault(topic, 0L))));
        return sizes;
    }

    /** The sizes as a Markdown table. */
    public static String markdown(Map<String, Size> sizes) {
        StringBuilder t = new StringBuilder("| topic | bytes on disk | records (log start to end) | bytes per record |\n"
                + "|---|---|---|---|\n");
        sizes.values().forEach(s -> t.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f |%n", s.topic(),
                s.bytes(), s.records(), s.bytesPerRecord())));
        return t.toString();
    }
}
