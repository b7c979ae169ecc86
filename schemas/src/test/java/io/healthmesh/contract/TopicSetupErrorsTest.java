package io.healthmesh.contract;

import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** A failed topic setup says what failed: a role that exits at start must not log "cannot set up topics: null". */
class TopicSetupErrorsTest {

    @Test
    void ourOwnWaitRunningOutNamesTheWaitInsteadOfNull() {
        assertThat(TopicSetup.describe(new TimeoutException()))
                .isEqualTo("Kafka did not answer within 30 s (listing, creating or describing topics)");
    }

    @Test
    void aKafkaErrorKeepsItsMessageAndOneWithoutANameItsType() {
        assertThat(TopicSetup.describe(new TopicAuthorizationException("Not authorized to access topics: [t]")))
                .isEqualTo("Not authorized to access topics: [t]");
        assertThat(TopicSetup.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
