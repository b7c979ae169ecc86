package io.healthmesh.notifier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A group alert names why the group fails open, also for events written before the reason existed. */
class FailOpenDetailTest {

    @Test
    void theAlertDetailNamesTheReason() {
        assertThat(StateDecoder.failOpenDetail("BELOW_MIN_HEALTHY")).contains("BELOW_MIN_HEALTHY", "panic threshold");
        assertThat(StateDecoder.failOpenDetail("NO_HEALTHY_MEMBER")).contains("NO_HEALTHY_MEMBER");
        assertThat(StateDecoder.failOpenDetail(null)).as("an older writer").contains("NO_HEALTHY_MEMBER");
        assertThat(StateDecoder.failOpenDetail("SOMETHING_NEW")).contains("SOMETHING_NEW");
    }
}
