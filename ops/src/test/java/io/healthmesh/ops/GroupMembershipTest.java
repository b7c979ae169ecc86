package io.healthmesh.ops;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GroupMembershipTest {

    @Test
    void aStaticMemberWithTheShortSessionByDefault() {
        assertThat(GroupMembership.withDefaults(Map.of("security.protocol", "SSL"), "prober-a"))
                .containsEntry("group.instance.id", "prober-a")
                .containsEntry("session.timeout.ms", "10000")
                .containsEntry("heartbeat.interval.ms", "1000")
                .containsEntry("security.protocol", "SSL");
    }

    @Test
    void thePassThroughWins() {
        assertThat(GroupMembership.withDefaults(Map.of("group.instance.id", "mine", "session.timeout.ms", "30000",
                "heartbeat.interval.ms", "3000"), "prober-a"))
                .containsEntry("group.instance.id", "mine")
                .containsEntry("session.timeout.ms", "30000")
                .containsEntry("heartbeat.interval.ms", "3000");
    }

    @Test
    void anEmptyIdIsDynamicMembership() {
        assertThat(GroupMembership.withDefaults(Map.of(), "")).doesNotContainKey("group.instance.id")
                .containsEntry("session.timeout.ms", "10000");
        assertThat(GroupMembership.withDefaults(Map.of(), null)).doesNotContainKey("group.instance.id");
    }

    @Test
    void theConsumerProtocolLeavesTheTimeoutsToTheBroker() {
        // the client refuses session.timeout.ms and heartbeat.interval.ms with group.protocol=consumer
        assertThat(GroupMembership.withDefaults(Map.of("group.protocol", "CONSUMER"), "prober-a"))
                .containsEntry("group.instance.id", "prober-a")
                .doesNotContainKeys("session.timeout.ms", "heartbeat.interval.ms");
    }

    @Test
    void theSettingAcceptsEmptyAndKafkaSafeIdsOnly() {
        Setting<String> setting = GroupMembership.instanceIdSetting("<hostname>");
        assertThat(setting.defaultValue()).isEqualTo("<hostname>");
        assertThat(setting.readFrom(Map.of("group.instance.id", ""))).isEmpty();
        assertThat(setting.readFrom(Map.of("group.instance.id", "pod-0.prober"))).isEqualTo("pod-0.prober");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> setting.readFrom(Map.of("group.instance.id",
                "has space"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group.instance.id");
        assertThat(GroupMembership.hostName()).matches("[A-Za-z0-9._:@-]{1,150}");
    }
}
