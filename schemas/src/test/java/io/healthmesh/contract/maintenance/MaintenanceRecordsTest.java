package io.healthmesh.contract.maintenance;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.MaintenanceInForce;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceRecordsTest {

    private final AvroSerde<Maintenance> serde = AvroSerde.forValues(Maintenance.class,
            Map.of("schema.registry.url", "mem://" + UUID.randomUUID()));

    @Test
    void everyKindOfSelectorSurvivesTheWireBothWays() {
        for (MaintenanceSelector selector : new MaintenanceSelector[] {MaintenanceSelector.target("t-1"),
                MaintenanceSelector.group("web"), MaintenanceSelector.labels(Map.of("rack", "r1", "env", "prod"))}) {
            MaintenanceWindow w = new MaintenanceWindow("m-1", selector, MaintenanceMode.DRAIN, 1_000, 61_000,
                    "kernel upgrade", 900, "alice");
            byte[] bytes = serde.serializer().serialize("healthmesh.maintenance", MaintenanceRecords.toAvro(w));
            MaintenanceWindow back = MaintenanceRecords.fromAvro(
                    serde.deserializer().deserialize("healthmesh.maintenance", bytes));
            assertThat(back).isEqualTo(w);
        }
    }

    @Test
    void aStateEventCarriesTheWindowsIdModeStartAndEnd() {
        MaintenanceWindow w = new MaintenanceWindow("m-2", MaintenanceSelector.group("g"), MaintenanceMode.SILENCE,
                5, 70_005, "r", 1, null);
        MaintenanceInForce carried = MaintenanceRecords.inForce(w);
        assertThat(carried.getId()).isEqualTo("m-2");
        assertThat(carried.getMode().name()).isEqualTo("SILENCE");
        assertThat(carried.getStartMs()).isEqualTo(5);
        assertThat(carried.getUntilMs()).isEqualTo(70_005);
        assertThat(MaintenanceRecords.inForce(null)).isNull();
    }
}
