package io.healthmesh.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The Prometheus text exposition of a metrics registry, shared by every HTTP server of the project that serves
 * {@code /metrics} (the workers' {@link OpsServer} and the schema registry's own listener), so that they all
 * answer in the same format with the same content type. Every exposition also carries the
 * {@value BuildInfo#METRIC} gauge, so each instance says which build it runs.
 */
public final class MetricsText {

    /** The content type of the Prometheus text format, version 0.0.4. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final ExpositionFormats FORMATS = ExpositionFormats.init();

    private MetricsText() {
    }

    /** Scrapes {@code registry} now and writes it, with the build's gauge, in the Prometheus text format. */
    public static byte[] scrape(PrometheusRegistry registry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
        registry.scrape().forEach(snapshots::metricSnapshot);
        snapshots.metricSnapshot(BuildInfo.current().gauge());
        try {
            FORMATS.getPrometheusTextFormatWriter().write(out, snapshots.build());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return out.toByteArray();
    }
}
