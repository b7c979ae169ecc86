package io.healthmesh.status;

import io.healthmesh.status.board.BoardRows;
import io.healthmesh.status.board.RegionRow;
import io.healthmesh.status.board.StatusBoard;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StatusMetricsTest {

    private final StatusBoard board = new StatusBoard(5);

    private String scrape(boolean perTarget) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        StatusMetrics.register(registry, board, perTarget, () -> 7, () -> 11, () -> 2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void groupGaugesRegionStalenessAndTheFeedAreExported() throws IOException {
        board.putTarget(BoardRows.row("w1", "web", "UNHEALTHY", false,
                new RegionRow("b", "UNHEALTHY", "SILENT", true, "TIMEOUT", 1L)));
        board.putTarget(BoardRows.row("w2", "web", "UNHEALTHY", false));
        board.putTarget(BoardRows.row("a1", "api", "HEALTHY", false));
        board.putGroup("web", true, 2);
        board.putGroup("api", false, 1);

        String text = scrape(false);

        assertThat(text).contains(
                "healthmesh_group_members{group=\"web\"} 2",
                "healthmesh_group_healthy{group=\"web\"} 0",
                "healthmesh_group_unhealthy{group=\"web\"} 2",
                "healthmesh_group_routable{group=\"web\"} 2",
                "healthmesh_group_fail_open{group=\"web\"} 1",
                "healthmesh_group_fail_open{group=\"api\"} 0",
                "healthmesh_group_healthy{group=\"api\"} 1",
                "healthmesh_region_stale_targets{region=\"b\"} 1",
                "healthmesh_status_feed_skipped_records_total 7",
                "healthmesh_status_feed_lookback_skipped_records_total 11",
                "healthmesh_status_page_clients 2");
        assertThat(text).doesNotContain("healthmesh_target_");
    }

    @Test
    void perTargetGaugesOnlyWhenAskedFor() throws IOException {
        board.putTarget(BoardRows.row("w1", "web", "HEALTHY", false));
        board.putTarget(BoardRows.row("w2", "web", "UNHEALTHY", false));

        String text = scrape(true);

        assertThat(text).contains(
                "healthmesh_target_healthy{group=\"web\",target=\"w1\"} 1",
                "healthmesh_target_healthy{group=\"web\",target=\"w2\"} 0",
                "healthmesh_target_latency_seconds{group=\"web\",target=\"w1\"} 0.0015");
    }
}
