package io.healthmesh.status.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.MaintenanceMode;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.status.board.TargetRow;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The page's row shows the maintenance window an event carries, and nothing when it carries none. */
class MaintenanceRowTest {

    private static TargetHealth event(MaintenanceInForce m) {
        return TargetHealth.newBuilder().setTargetId("a").setGroup("web").setStatus(HealthStatus.HEALTHY)
                .setSinceMs(1).setGeneration(1).setUpdatedAtMs(2).setMaintenance(m).build();
    }

    @Test
    void aDrainWindowReachesTheRowAndItsJson() throws Exception {
        TargetRow row = StatusFeed.row(event(MaintenanceInForce.newBuilder().setId("m-1")
                .setMode(MaintenanceMode.DRAIN).setStartMs(1).setUntilMs(99).build()));
        assertThat(row.maintenance()).isEqualTo(new TargetRow.Maintenance("m-1", "DRAIN", 99));
        assertThat(new ObjectMapper().writeValueAsString(row))
                .contains("\"maintenance\":{\"id\":\"m-1\",\"mode\":\"DRAIN\",\"untilMs\":99}");
    }

    @Test
    void noWindowNoField() throws Exception {
        TargetRow row = StatusFeed.row(event(null));
        assertThat(row.maintenance()).isNull();
        assertThat(new ObjectMapper().writeValueAsString(row)).doesNotContain("maintenance");
    }
}
