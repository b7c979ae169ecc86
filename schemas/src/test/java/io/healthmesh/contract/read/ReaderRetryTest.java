package io.healthmesh.contract.read;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The topic readers' retry rule, with a recorded pause instead of real waiting. */
class ReaderRetryTest {

    private final List<Duration> waits = new ArrayList<>();
    private boolean stopped;
    private final ReaderRetry retry = new ReaderRetry("test reader", ReaderRetry.DEFAULT_BACKOFF, wait -> {
        waits.add(wait);
        return !stopped;
    });

    @Test
    void failuresInARowWaitOneSecondDoublingUpToThirtySeconds() {
        for (int i = 0; i < 8; i++) {
            assertThat(retry.failed("waiting for topic t")).isTrue();
        }
        assertThat(waits).extracting(Duration::toSeconds).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
    }

    @Test
    void aSuccessStartsTheBackoffOverAndClearsTheReason() {
        retry.failed("waiting for topic t");
        retry.failed("waiting for topic t");
        assertThat(retry.waitingFor()).isEqualTo("waiting for topic t");

        retry.succeeded();
        assertThat(retry.waitingFor()).isNull();
        retry.failed("TimeoutException: metadata");

        assertThat(waits).extracting(Duration::toSeconds).containsExactly(1L, 2L, 1L);
        assertThat(retry.waitingFor()).isEqualTo("TimeoutException: metadata");
    }

    @Test
    void aStopDuringTheWaitEndsTheReader() {
        stopped = true;
        assertThat(retry.failed("waiting for topic t")).isFalse();
    }

    @Test
    void aReasonFromAnExceptionKeepsNoCredentials() {
        String reason = ReaderRetry.describe(new IllegalStateException("cannot reach http://alice:s3cret@registry:8081/x"));
        assertThat(reason).isEqualTo("IllegalStateException: cannot reach http://***@registry:8081/x");
        assertThat(ReaderRetry.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
