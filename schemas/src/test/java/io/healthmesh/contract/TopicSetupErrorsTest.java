package io.healthmesh.contract;

import io.healthmesh.core.retry.Backoff;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failed topic setup says what failed (a role that exits at start must not log "cannot set up topics: null"), and
 * a role starting asks a Kafka that does not answer again, for a bounded time, before it gives up.
 */
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

    private static final Backoff SHORT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    private static IllegalStateException failed(Throwable cause) {
        return new IllegalStateException("cannot set up topics: " + TopicSetup.describe(cause), cause);
    }

    @Test
    void aKafkaThatDoesNotAnswerIsAskedAgainWithLongerWaitsUntilItDoes() {
        long[] now = {0};
        List<Duration> waits = new ArrayList<>();
        int[] attempts = {0};
        TopicSetup.patiently(() -> {
            if (++attempts[0] <= 3) {
                throw failed(attempts[0] == 2 ? new org.apache.kafka.common.errors.TimeoutException("metadata")
                        : new TimeoutException());
            }
        }, Duration.ofMinutes(5), SHORT, () -> now[0], wait -> {
            waits.add(wait);
            now[0] += wait.toNanos();
            return true;
        });
        assertThat(attempts[0]).isEqualTo(4);
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    }

    @Test
    void aTopicThatDisagreesOrADeniedOperationFailsAtOnce() {
        int[] attempts = {0};
        assertThatThrownBy(() -> TopicSetup.patiently(() -> {
            attempts[0]++;
            throw new IllegalStateException("topics disagree with the design: t has 3 partitions");
        }, Duration.ofMinutes(5), SHORT, System::nanoTime, wait -> true))
                .hasMessageContaining("disagree");
        assertThatThrownBy(() -> TopicSetup.patiently(() -> {
            attempts[0]++;
            throw failed(new TopicAuthorizationException("Not authorized to access topics: [t]"));
        }, Duration.ofMinutes(5), SHORT, System::nanoTime, wait -> true))
                .hasMessageContaining("Not authorized");
        assertThat(attempts[0]).as("one attempt each").isEqualTo(2);
    }

    @Test
    void itGivesUpWithTheLastErrorOncePatienceRunsOut() {
        long[] now = {0};
        int[] attempts = {0};
        assertThatThrownBy(() -> TopicSetup.patiently(() -> {
            attempts[0]++;
            throw failed(new TimeoutException());
        }, Duration.ofSeconds(20), SHORT, () -> now[0], wait -> {
            now[0] += wait.toNanos();
            return true;
        })).hasMessage("cannot set up topics: Kafka did not answer within 30 s (listing, creating or describing topics)");
        // waits 1 + 2 + 4 + 8 = 15 s fit in 20 s; the next (16 s) would not
        assertThat(attempts[0]).isEqualTo(5);
    }
}
