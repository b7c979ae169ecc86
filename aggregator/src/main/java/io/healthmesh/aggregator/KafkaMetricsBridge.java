package io.healthmesh.aggregator;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Exposes Kafka metrics (Kafka Streams and its clients, and the aggregator's own sensors) to Prometheus, read at
 * scrape time. A Kafka metric {@code group/name{tags}} becomes {@code kafka_<group>_<name>{tags}} (the aggregator's
 * own group keeps its {@code healthmesh_} name); names ending in {@code -total} are counters, everything else
 * gauges; non-numeric metrics (versions, commit ids) are skipped.
 */
final class KafkaMetricsBridge implements MultiCollector {

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;

    KafkaMetricsBridge(Supplier<Map<MetricName, ? extends Metric>> metrics) {
        this.metrics = requireNonNull(metrics, "metrics");
    }

    /** One Prometheus family being assembled: its kind, help and data points by label set. */
    private static final class Family {
        final boolean counter;
        final String help;
        final Map<Labels, Double> points = new TreeMap<>();

        Family(boolean counter, String help) {
            this.counter = counter;
            this.help = help;
        }
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.get().entrySet()) {
            if (!(entry.getValue().metricValue() instanceof Number number)) {
                continue;
            }
            MetricName name = entry.getKey();
            double value = number.doubleValue();
            boolean counter = name.name().endsWith("-total");
            if (counter && !(Double.isFinite(value) && value >= 0)) {
                continue;
            }
            String prefix = name.group().startsWith("healthmesh") ? "" : "kafka_";
            // sanitizing drops a trailing _total, which the exposition adds back for counters
            String family = PrometheusNaming.sanitizeMetricName(prefix + name.group() + "_" + name.name());
            Family f = families.computeIfAbsent(family, n -> new Family(counter, name.description()));
            if (f.counter != counter) {
                continue; // a gauge and a counter that sanitize to one name: keep the first, never fail a scrape
            }
            f.points.putIfAbsent(labels(name.tags()), value);
        }
        List<MetricSnapshot> snapshots = new ArrayList<>(families.size());
        families.forEach((name, f) -> snapshots.add(f.counter ? counter(name, f) : gauge(name, f)));
        return new MetricSnapshots(snapshots);
    }

    private static Labels labels(Map<String, String> tags) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        new TreeMap<>(tags).forEach((k, v) -> {
            String label = PrometheusNaming.sanitizeLabelName(k);
            if (seen.add(label)) {
                names.add(label);
                values.add(v == null ? "" : v);
            }
        });
        return Labels.of(names, values);
    }

    private static MetricSnapshot counter(String name, Family f) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(f.help);
        f.points.forEach((labels, v) -> b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(labels).value(v).build()));
        return b.build();
    }

    private static MetricSnapshot gauge(String name, Family f) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(f.help);
        f.points.forEach((labels, v) -> b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(labels).value(v).build()));
        return b.build();
    }
}
