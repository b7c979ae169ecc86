package io.healthmesh.prober.publish;

import org.junit.jupiter.api.Test;

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
}
