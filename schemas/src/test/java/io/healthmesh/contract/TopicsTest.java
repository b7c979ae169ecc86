package io.healthmesh.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicsTest {

    @Test
    void everyNameIsThePrefixAndItsSuffix() {
        Topics topics = new Topics("acme.");
        assertThat(topics.prefix()).isEqualTo("acme.");
        assertThat(topics.targets()).isEqualTo("acme.targets");
        assertThat(topics.probeResults()).isEqualTo("acme.probe-results");
        assertThat(topics.healthState()).isEqualTo("acme.health-state");
        assertThat(topics.groupState()).isEqualTo("acme.group-state");
        assertThat(topics.rejected()).isEqualTo("acme.rejected");
        assertThat(topics.groups()).isEqualTo("acme.groups");
        assertThat(topics.maintenance()).isEqualTo("acme.maintenance");
        assertThat(topics.maintenanceAccepted()).isEqualTo("acme.maintenance-accepted");
        assertThat(Topics.DEFAULT.targets()).isEqualTo("healthmesh.targets");
    }

    @Test
    void theNamesAreBuiltOnceAndEqualPrefixesMakeEqualTopics() {
        Topics topics = new Topics("p.");
        assertThat(topics.probeResults()).isSameAs(topics.probeResults());
        assertThat(topics).isEqualTo(new Topics("p.")).hasSameHashCodeAs(new Topics("p."))
                .isNotEqualTo(new Topics("q.")).hasToString("Topics[prefix=p.]");
        assertThatThrownBy(() -> new Topics(null)).isInstanceOf(NullPointerException.class).hasMessage("prefix");
    }
}
