package io.healthmesh.contract.read;

import io.healthmesh.core.retry.Backoff;
import io.healthmesh.embedded.FreePorts;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The loop's own rules, with a consumer that never connects: the steps are the test's. */
class ReaderLoopTest {

    private static final Backoff SHORT = new Backoff(Duration.ofMillis(20), Duration.ofMillis(40));

    private static KafkaConsumer<byte[], byte[]> unconnected() {
        return new KafkaConsumer<>(CompactedTopicReader.withoutGroup(
                Map.of("bootstrap.servers", "127.0.0.1:" + FreePorts.one())),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void aFailingAssignmentIsRetriedUntilItWorksThenPollsFollowAndTheReasonClears() throws Exception {
        AtomicInteger assignments = new AtomicInteger();
        AtomicReference<String> waitingDuringPoll = new AtomicReference<>("not polled");
        CountDownLatch polled = new CountDownLatch(3);
        AtomicReference<ReaderLoop<byte[], byte[]>> self = new AtomicReference<>();
        ReaderLoop<byte[], byte[]> loop = new ReaderLoop<>("test-reader", ReaderLoopTest::unconnected,
                new ReaderLoop.Reading<>() {
                    @Override
                    public void assign(KafkaConsumer<byte[], byte[]> consumer) {
                        if (assignments.incrementAndGet() <= 3) {
                            throw new IllegalStateException("broker away, attempt " + assignments.get());
                        }
                    }

                    @Override
                    public void poll(KafkaConsumer<byte[], byte[]> consumer) {
                        if (polled.getCount() == 2) {
                            waitingDuringPoll.set(self.get().waitingFor());
                        }
                        polled.countDown();
                    }
                }, Duration.ofMillis(200), SHORT);
        self.set(loop);
        try {
            loop.start();
            assertThat(polled.await(20, TimeUnit.SECONDS)).as("polls after the failed assignments").isTrue();
            assertThat(assignments.get()).as("assigned until it worked, then not again").isEqualTo(4);
            assertThat(waitingDuringPoll.get()).as("a poll that worked clears the reason").isNull();
            assertThat(loop.running()).isTrue();
        } finally {
            loop.close();
        }
        assertThat(loop.running()).isFalse();
    }

    @Test
    void aFailureNamesItsReasonAndCloseEndsTheBackoffAtOnce() throws Exception {
        CountDownLatch failedOnce = new CountDownLatch(1);
        ReaderLoop<byte[], byte[]> loop = new ReaderLoop<>("test-reader", ReaderLoopTest::unconnected,
                new ReaderLoop.Reading<>() {
                    @Override
                    public void assign(KafkaConsumer<byte[], byte[]> consumer) {
                        failedOnce.countDown();
                        throw new IllegalStateException("denied topic");
                    }

                    @Override
                    public void poll(KafkaConsumer<byte[], byte[]> consumer) {
                        throw new AssertionError("never assigned, never polled");
                    }
                }, Duration.ofMillis(200), new Backoff(Duration.ofSeconds(30), Duration.ofSeconds(30)));
        loop.start();
        assertThat(failedOnce.await(20, TimeUnit.SECONDS)).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (loop.waitingFor() == null && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(loop.waitingFor()).isEqualTo("IllegalStateException: denied topic");
        long start = System.nanoTime();
        loop.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close during a 30 s backoff")
                .isLessThan(Duration.ofSeconds(8));
        assertThat(loop.running()).isFalse();
    }
}
