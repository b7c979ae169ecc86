package io.healthmesh.contract.target;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code fastIntervalMs} and {@code downIntervalMs} through the contract and the target files. */
class StateIntervalsContractTest {

    @Test
    void absentInTheContractIsAbsentInTheDomain() {
        TargetDefinition minimal = TargetDefinition.newBuilder().setId("t").setAddress("10.0.0.1")
                .setProtocol(io.healthmesh.schema.Protocol.TCP).build();
        assertThat(minimal.getFastIntervalMs()).isNull();
        assertThat(minimal.getDownIntervalMs()).isNull();
        TargetSpec spec = TargetSpecs.fromAvro(minimal);
        assertThat(spec.fastIntervalMs()).isNull();
        assertThat(spec.downIntervalMs()).isNull();
        assertThat(spec.hasStateIntervals()).isFalse();
    }

    @Test
    void survivesTheTripThroughAvro() {
        TargetSpec spec = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.HTTP).withIntervals(1_000, 60_000);
        assertThat(TargetSpecs.fromAvro(TargetSpecs.toAvro(spec))).isEqualTo(spec);
        TargetSpec fastOnly = spec.withIntervals(1_000, null);
        assertThat(TargetSpecs.fromAvro(TargetSpecs.toAvro(fastOnly))).isEqualTo(fastOnly);
    }

    @Test
    void aFileSetsThemAndTheValidatorHoldsThemToTheProfile() {
        TargetFileReader.Batch good = TargetFileReader.readText("t.yaml", """
                - {id: web, address: 10.0.0.1, protocol: TCP, intervalMs: 10000, timeoutMs: 1000,
                   fastIntervalMs: 2000, downIntervalMs: 60000}
                - {id: plain, address: 10.0.0.1, protocol: TCP}
                """, false);
        assertThat(good.errors()).isEmpty();
        assertThat(good.specs().get(0).fastIntervalMs()).isEqualTo(2_000);
        assertThat(good.specs().get(0).downIntervalMs()).isEqualTo(60_000);
        assertThat(good.specs().get(1).hasStateIntervals()).isFalse();

        TargetFileReader.Batch bad = TargetFileReader.readText("t.yaml", """
                - {id: clb, address: 10.0.0.1, protocol: TCP, profile: TENCENT_CLB, fastIntervalMs: 5000}
                - {id: bad, address: 10.0.0.1, protocol: TCP, fastIntervalMs: fast}
                """, false);
        assertThat(bad.errors()).containsExactlyInAnyOrder(
                "t.yaml: target clb: fastIntervalMs: 5000 (expected: absent under TENCENT_CLB: Tencent Cloud CLB has"
                        + " one interval for every state)",
                "t.yaml: target bad: fastIntervalMs: \"fast\" (expected: an integer)");
    }
}
