package io.healthmesh.prober.metrics;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.prober.schedule.SkipReason;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ProberMetricsTest {

    @Test
    void exposesEveryDocumentedSeriesInTheTextFormat() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        ProberMetrics metrics = new ProberMetrics(registry);
        metrics.gauges(() -> 7, () -> 3, () -> 11);
        TargetSpec spec = TargetSpec.of("t", "g", "127.0.0.1", 443, Protocol.HTTPS);
        metrics.completed(new CompletedProbe(spec, 1L, 0L, 2_500, ProbeReport.of(Outcome.TIMEOUT, 2_000_000, null)));
        metrics.skipped(SkipReason.IN_FLIGHT_LIMIT);
        TargetSpec tcp = TargetSpec.of("u", "g", "127.0.0.1", 80, Protocol.TCP);
        metrics.completed(new CompletedProbe(tcp, 1L, 0L, 900_000, ProbeReport.of(Outcome.INCONCLUSIVE, 2_000_000,
                "late-start: started 900 ms late (bound 250 ms); TIMEOUT")));
        metrics.completed(new CompletedProbe(tcp, 1L, 0L, 900_000, ProbeReport.of(Outcome.INCONCLUSIVE, 0, "no cause")));
        metrics.completed(new CompletedProbe(tcp, 1L, 0L, 900_000, ProbeReport.of(Outcome.INCONCLUSIVE, 0,
                "local-ports: NativeIoException: connect(..) failed: Cannot assign requested address")));
        metrics.delayed();
        metrics.bufferDropped();
        metrics.publishFailed();
        metrics.rejected("INVALID_DEFINITION");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        String text = out.toString(StandardCharsets.UTF_8);

        assertThat(text)
                .contains("healthmesh_prober_probes_total{outcome=\"TIMEOUT\",protocol=\"HTTPS\"} 1.0")
                .contains("healthmesh_prober_probes_total{outcome=\"SUCCESS\",protocol=\"TCP\"} 0.0")
                .contains("healthmesh_prober_probe_latency_seconds_bucket{protocol=\"HTTPS\",le=\"2.5\"} 1")
                .contains("healthmesh_prober_probe_latency_seconds_bucket{protocol=\"HTTPS\",le=\"1.0\"} 0")
                .contains("healthmesh_prober_scheduling_lag_seconds_bucket{le=\"0.005\"} 1")
                .contains("healthmesh_prober_probes_skipped_total{reason=\"IN_FLIGHT_LIMIT\"} 1.0")
                .contains("healthmesh_prober_probes_delayed_total 1.0")
                .contains("healthmesh_prober_probes_total{outcome=\"INCONCLUSIVE\",protocol=\"TCP\"} 3.0")
                .contains("healthmesh_prober_inconclusive_total{cause=\"late-start\"} 1.0")
                .contains("healthmesh_prober_inconclusive_total{cause=\"internal-error\"} 1.0")
                .contains("healthmesh_prober_inconclusive_total{cause=\"queue-full\"} 0.0")
                .contains("healthmesh_prober_inconclusive_total{cause=\"loop-stall\"} 0.0")
                .contains("healthmesh_prober_inconclusive_total{cause=\"local-ports\"} 1.0")
                .contains("healthmesh_prober_buffer_dropped_total 1.0")
                .contains("healthmesh_prober_publish_failures_total 1.0")
                .contains("healthmesh_prober_rejected_definitions_total{reason=\"INVALID_DEFINITION\"} 1.0")
                .contains("healthmesh_prober_targets_owned 7.0")
                .contains("healthmesh_prober_probes_in_flight 3.0")
                .contains("healthmesh_prober_buffered_results 11.0");
    }

    @Test
    void tlsProbesCountByDaysLeftOfTheirChainAndOthersAreNotCounted() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        ProberMetrics metrics = new ProberMetrics(registry);
        TargetSpec spec = TargetSpec.of("t", "g", "127.0.0.1", 443, Protocol.HTTPS);
        long start = 1_000L * 86_400_000L;
        long day = 86_400_000L;
        for (long chainNotAfter : new long[] {start + 10 * day + 5, start + 100 * day, start - day}) {
            metrics.completed(new CompletedProbe(spec, 1L, start, 0, new ProbeReport(Outcome.SUCCESS, 1_000, 10L, 20L,
                    30L, 200, null, 0, start + 400 * day, chainNotAfter)));
        }
        metrics.completed(new CompletedProbe(spec, 1L, start, 0, ProbeReport.of(Outcome.TLS_FAILURE, 1_000, "TLS: x")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("healthmesh_prober_tls_cert_days_left_bucket{le=\"0.0\"} 1")
                .contains("healthmesh_prober_tls_cert_days_left_bucket{le=\"7.0\"} 1")
                .contains("healthmesh_prober_tls_cert_days_left_bucket{le=\"14.0\"} 2")
                .contains("healthmesh_prober_tls_cert_days_left_bucket{le=\"365.0\"} 3")
                .contains("healthmesh_prober_tls_cert_days_left_count 3");
    }

    @Test
    void theChosenTransportIsAnInfoSeries() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        new ProberMetrics(registry).transport("epoll");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("healthmesh_prober_transport_info{transport=\"epoll\"} 1");
    }
}
