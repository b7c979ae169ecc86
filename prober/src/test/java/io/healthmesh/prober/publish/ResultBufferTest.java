package io.healthmesh.prober.publish;

import io.healthmesh.testkit.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultBufferTest {

    @Test
    void fullBufferDropsTheOldest() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(3);

        assertThat(buffer.offer(1)).isFalse();
        assertThat(buffer.offer(2)).isFalse();
        assertThat(buffer.offer(3)).isFalse();
        assertThat(buffer.offer(4)).isTrue();

        assertThat(buffer.size()).isEqualTo(3);
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isEqualTo(2);
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isEqualTo(3);
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isEqualTo(4);
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void fullBufferDropsTheOldestThatCannotDecideFirst() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(4, n -> n % 2 == 0); // even: may decide a state
        for (int n = 1; n <= 4; n++) {
            buffer.offer(n);
        }

        assertThat(buffer.offer(5)).as("dropped 1, the oldest that cannot decide").isTrue();
        assertThat(buffer.offer(6)).as("dropped 3").isTrue();
        assertThat(buffer.offer(8)).as("dropped 5").isTrue();
        assertThat(drain(buffer)).as("in arrival order").containsExactly(2, 4, 6, 8);
    }

    @Test
    void fullBufferOfDecidingResultsDropsTheOldest() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(3, n -> n % 2 == 0);
        buffer.offer(2);
        buffer.offer(4);
        buffer.offer(6);

        assertThat(buffer.offer(7)).isTrue();
        assertThat(buffer.offer(9)).as("7 cannot decide: it goes before any that may").isTrue();
        assertThat(drain(buffer)).containsExactly(4, 6, 9);
    }

    @Test
    void putBackKeepsArrivalOrderAcrossBothKindsAndSparesADecidingResult() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(3, n -> n % 2 == 0);
        buffer.offer(1);
        buffer.offer(2);
        buffer.offer(3);
        List<Integer> batch = new ArrayList<>();
        buffer.takeBatch(batch, 2, 0, 0);
        assertThat(batch).containsExactly(1, 2);
        buffer.offer(5);
        buffer.offer(7);

        assertThat(buffer.putBack(2)).as("full: 3, not the deciding 2, is dropped").isTrue();
        assertThat(buffer.putBack(1)).as("full of results that cannot all decide: 1 goes").isTrue();
        assertThat(drain(buffer)).containsExactly(2, 5, 7);
    }

    private static List<Integer> drain(ResultBuffer<Integer> buffer) throws InterruptedException {
        List<Integer> out = new ArrayList<>();
        for (Integer n = buffer.poll(0, TimeUnit.MILLISECONDS); n != null; n = buffer.poll(0, TimeUnit.MILLISECONDS)) {
            out.add(n);
        }
        return out;
    }

    @Test
    void putBackReturnsToTheHeadUnlessFull() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(2);
        buffer.offer(1);
        buffer.offer(2);
        Integer first = buffer.poll(0, TimeUnit.MILLISECONDS);

        assertThat(buffer.putBack(first)).isFalse();
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isEqualTo(1);

        buffer.offer(3);
        assertThat(buffer.putBack(1)).as("dropped: the buffer is full").isTrue();
        assertThat(buffer.poll(0, TimeUnit.MILLISECONDS)).isEqualTo(2);
    }

    @Test
    void pollWaitsForAnElementUpToItsTimeout() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(2);
        long start = System.nanoTime();

        assertThat(buffer.poll(50, TimeUnit.MILLISECONDS)).isNull();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));

        Thread offerer = new Thread(() -> buffer.offer(7));
        offerer.start();
        assertThat(buffer.poll(10, TimeUnit.SECONDS)).isEqualTo(7);
        offerer.join(10_000);
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new ResultBuffer<Integer>(0)).hasMessage("capacity: 0 (expected: >= 1)");
    }

    @Test
    void aBatchTakesTheOldestInOrderAndAtOnceWhenAWholeBatchWaits() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        for (int i = 1; i <= 5; i++) {
            buffer.offer(i);
        }
        List<Integer> batch = new ArrayList<>();
        long start = System.nanoTime();

        assertThat(buffer.takeBatch(batch, 3, 0, TimeUnit.SECONDS.toNanos(60))).isEqualTo(3);

        assertThat(batch).containsExactly(1, 2, 3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(buffer.size()).isEqualTo(2);
    }

    @Test
    void aBatchGathersWhatArrivesAfterTheFirstElement() throws Exception {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        List<Integer> batch = new ArrayList<>();
        CompletableFuture<Integer> taken = takeBatchAsync(buffer, batch, 10, Duration.ofSeconds(3));
        buffer.offer(1);
        Await.until(Duration.ofSeconds(30), buffer::gathering, () -> "the consumer woken by the first element");
        buffer.offer(2);

        assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(batch).containsExactly(1, 2);
    }

    @Test
    void aFullBatchEndsTheGatheringEarly() throws Exception {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        List<Integer> batch = new ArrayList<>();
        // gathering for ten minutes unless woken: only the second offer, which fills the batch, wakes it
        CompletableFuture<Integer> taken = takeBatchAsync(buffer, batch, 2, Duration.ofMinutes(10));
        buffer.offer(1);
        buffer.offer(2);

        assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(batch).containsExactly(1, 2);
    }

    @Test
    void anUrgentElementEndsTheGatheringEarly() throws Exception {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        List<Integer> batch = new ArrayList<>();
        // gathering for ten minutes for a batch of ten: only the urgent offer ends it
        CompletableFuture<Integer> taken = takeBatchAsync(buffer, batch, 10, Duration.ofMinutes(10));
        buffer.offer(1);
        buffer.offer(2, true);

        assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(batch).containsExactly(1, 2);
    }

    @Test
    void anUrgentElementLeftBehindByAFullBatchIsTakenWithoutGathering() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        buffer.offer(1);
        buffer.offer(2);
        buffer.offer(3, true);
        List<Integer> batch = new ArrayList<>();
        assertThat(buffer.takeBatch(batch, 2, 0, TimeUnit.MINUTES.toNanos(10))).isEqualTo(2);

        List<Integer> next = new ArrayList<>();
        long start = System.nanoTime();
        assertThat(buffer.takeBatch(next, 2, 0, TimeUnit.MINUTES.toNanos(10))).isEqualTo(1);

        assertThat(next).containsExactly(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        // once the urgent element is out, gathering resumes: a plain element waits the whole (short) gather
        buffer.offer(4);
        start = System.nanoTime();
        assertThat(buffer.takeBatch(new ArrayList<>(), 2, 0, TimeUnit.MILLISECONDS.toNanos(50))).isEqualTo(1);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }

    @Test
    void aBatchWithNothingWithinTheTimeoutIsEmpty() throws InterruptedException {
        ResultBuffer<Integer> buffer = new ResultBuffer<>(10);
        List<Integer> batch = new ArrayList<>();

        assertThat(buffer.takeBatch(batch, 10, TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.SECONDS.toNanos(60)))
                .isZero();
        assertThat(batch).isEmpty();
    }

    /** {@code takeBatch} on another thread, waiting up to 30 s for a first element. */
    private static CompletableFuture<Integer> takeBatchAsync(ResultBuffer<Integer> buffer, List<Integer> into, int max,
                                                             Duration gather) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return buffer.takeBatch(into, max, TimeUnit.SECONDS.toNanos(30), gather.toNanos());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
