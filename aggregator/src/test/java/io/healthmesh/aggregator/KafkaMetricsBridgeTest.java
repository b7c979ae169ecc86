package io.healthmesh.aggregator;

import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.Value;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaMetricsBridgeTest {

    private static String scrape(Metrics metrics) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new KafkaMetricsBridge(metrics::metrics));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countersGaugesAndLabelsAreExposedAndNonNumericMetricsSkipped() throws IOException {
        try (Metrics metrics = new Metrics()) {
            Sensor rejected = metrics.sensor("r");
            rejected.add(new MetricName("rejected-records-total", "healthmesh-aggregator", "Rejected.",
                    Map.of("reason", "UNDECODABLE")), new CumulativeCount());
            rejected.record();
            rejected.record();
            Sensor lag = metrics.sensor("lag");
            lag.add(new MetricName("records-lag", "consumer-fetch-manager-metrics", "Lag.",
                    Map.of("client-id", "c1", "topic", "t")), new Value());
            lag.record(42);
            metrics.addMetric(new MetricName("version", "app-info", "", Map.of()),
                    (org.apache.kafka.common.metrics.Gauge<String>) (config, now) -> "4.1.1");

            String text = scrape(metrics);
            assertThat(text).contains("healthmesh_aggregator_rejected_records_total{reason=\"UNDECODABLE\"} 2.0");
            assertThat(text).contains("kafka_consumer_fetch_manager_metrics_records_lag{client_id=\"c1\",topic=\"t\"} 42.0");
            assertThat(text).doesNotContain("app_info_version");
        }
    }
}
