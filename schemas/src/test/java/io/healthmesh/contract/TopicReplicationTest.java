package io.healthmesh.contract;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicReplicationTest {

    @Test
    void refusesToCreateSingleCopyTopicsUnlessTheSetupSaysItIsADemo() {
        TopicReplication unsafe = new TopicReplication((short) 1, false);

        assertThatThrownBy(() -> unsafe.requireCreatable(List.of("healthmesh.targets", "healthmesh.health-state")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to create healthmesh.targets, healthmesh.health-state")
                .hasMessageContaining("replication.factor=1")
                .hasMessageContaining("replication.factor=3")
                .hasMessageContaining("replication.single.copy.allowed=true");
        assertThatCode(() -> TopicReplication.singleCopy().requireCreatable(List.of("healthmesh.targets")))
                .doesNotThrowAnyException();
    }

    @Test
    void nothingToCreateIsNeverRefused() {
        assertThatCode(() -> new TopicReplication((short) 1, false).requireCreatable(List.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void replicatedTopicsNeedNoPermission() {
        assertThatCode(() -> new TopicReplication((short) 2, false).requireCreatable(List.of("t")))
                .doesNotThrowAnyException();
        assertThatCode(() -> TopicReplication.production().requireCreatable(List.of("t")))
                .doesNotThrowAnyException();
    }

    @Test
    void twoCopiesInSyncFromThreeOn() {
        assertThat(TopicReplication.singleCopy().minInsyncReplicas()).isEqualTo(1);
        assertThat(new TopicReplication((short) 2, false).minInsyncReplicas()).isEqualTo(1);
        assertThat(TopicReplication.production().minInsyncReplicas()).isEqualTo(2);
        assertThat(new TopicReplication((short) 5, false).minInsyncReplicas()).isEqualTo(2);
    }

    @Test
    void factorOutOfRangeIsRefused() {
        assertThatThrownBy(() -> new TopicReplication((short) 0, true))
                .hasMessage("replication.factor: 0 (expected: 1..32)");
        assertThatThrownBy(() -> new TopicReplication((short) 33, false))
                .hasMessage("replication.factor: 33 (expected: 1..32)");
    }
}
