package io.healthmesh.registry;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ContractSchemasTest {

    @Test
    void registersEveryValueSchemaPerPrefixOnceAndAgainWithoutChange() {
        SchemaRegistry registry = SchemaRegistry.inMemory();
        ContractSchemas.register(registry, List.of("healthmesh.", "other."));
        assertThat(registry.subjects(false)).containsExactlyInAnyOrder("healthmesh.targets-value",
                "healthmesh.probe-results-value", "healthmesh.health-state-value", "healthmesh.group-state-value",
                "healthmesh.groups-value", "healthmesh.maintenance-value", "other.targets-value",
                "other.probe-results-value", "other.health-state-value", "other.group-state-value", "other.groups-value",
                "other.maintenance-value");
        ContractSchemas.register(registry, List.of("healthmesh."));
        assertThat(registry.versions("healthmesh.targets-value", false)).containsExactly(1);
        assertThat(ContractSchemas.of(new Topics("x.")).keySet()).hasSize(6);
    }
}
