package io.healthmesh.contract.read;

import io.healthmesh.core.retry.Backoff;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The thread of a topic reader that must never give up, shared by every reader that follows whole topics without a
 * consumer group. It creates the consumer on its own thread, has the {@link Reading} assign the partitions until
 * that succeeds, then polls until {@link #close()}. A failure of either step (a broker that does not answer within a
 * call's timeout, a denied topic) is retried with {@link ReaderRetry}'s backoff, and the consumer keeps its
 * positions, so reading goes on from where it stood. A topic that does not exist yet is waited for, checked every
 * second, and named by {@link #waitingFor()} meanwhile.
 *
 * @param <K> the consumer's key type
 * @param <V> the consumer's value type
 */
public final class ReaderLoop<K, V> implements AutoCloseable {

    /** What a reader does on the loop's thread; either step may throw to have it retried after a backoff. */
    public interface Reading<K, V> {

        /** Assigns the partitions and seeks; called until it returns without throwing. */
        void assign(KafkaConsumer<K, V> consumer);

        /** One poll and the handling of what it returned. */
        void poll(KafkaConsumer<K, V> consumer);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ReaderLoop.class);
    /** How often a missing topic is looked for again. */
    private static final Duration TOPIC_CHECK = Duration.ofSeconds(1);

    private final String name;
    private final Supplier<KafkaConsumer<K, V>> consumers;
    private final Reading<K, V> reading;
    private final Duration kafkaCall;
    private final ReaderRetry retry;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Set<String> waitedFor = new HashSet<>();
    private final Thread thread;
    private volatile KafkaConsumer<K, V> consumer;

    /**
     * A loop, not started yet.
     *
     * @param name      the thread's name and the reader's name in logs
     * @param consumers creates the consumer, on the loop's thread
     * @param kafkaCall how long one metadata call may wait for the broker
     * @param backoff   the wait between failures in a row
     */
    public ReaderLoop(String name, Supplier<KafkaConsumer<K, V>> consumers, Reading<K, V> reading,
                      Duration kafkaCall, Backoff backoff) {
        this.name = requireNonNull(name, "name");
        this.consumers = requireNonNull(consumers, "consumers");
        this.reading = requireNonNull(reading, "reading");
        this.kafkaCall = requireNonNull(kafkaCall, "kafkaCall");
        this.retry = new ReaderRetry(name, backoff, this::pause);
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /** Starts the loop's thread. */
    public void start() {
        thread.start();
    }

    /** Why the reader is not reading (a Kafka failure it retries, a topic it waits for), or null while it reads. */
    public String waitingFor() {
        return retry.waitingFor();
    }

    /** True while the thread runs and the loop was not closed. */
    public boolean running() {
        return thread.isAlive() && !closed.get();
    }

    /** True once {@link #close()} was called. */
    public boolean closed() {
        return closed.get();
    }

    /**
     * The partitions of {@code topic}, waiting (checked every second, said once in the log) while it does not exist.
     * Called from {@link Reading#assign}.
     *
     * @throws WakeupException when the loop was closed while waiting
     */
    public List<TopicPartition> partitionsOf(KafkaConsumer<K, V> consumer, String topic) {
        while (!closed.get()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, kafkaCall);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            }
            if (waitedFor.add(topic)) {
                LOG.info("{}: topic {} not there yet, waiting for it", name, topic);
            }
            retry.waiting("waiting for topic " + topic + " (it does not exist yet)");
            pauseOrEnd(TOPIC_CHECK);
        }
        throw new WakeupException();
    }

    /**
     * Waits {@code wait} on the loop's thread, for a pause a {@link Reading} decides on (e.g. a registry that cannot
     * be reached).
     *
     * @throws WakeupException when the loop was closed meanwhile: the loop then ends
     */
    public void pauseOrEnd(Duration wait) {
        if (!pause(wait)) {
            throw new WakeupException();
        }
    }

    private void run() {
        try {
            consumer = consumers.get();
            boolean assigned = false;
            while (!closed.get()) {
                try {
                    if (!assigned) {
                        reading.assign(consumer);
                        assigned = true;
                    }
                    reading.poll(consumer);
                    retry.succeeded();
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // the consumer keeps its positions: the next attempt reads on from where this one stopped
                    if (closed.get() || !retry.failed(ReaderRetry.describe(e))) {
                        return;
                    }
                }
            }
        } catch (WakeupException e) {
            if (!closed.get()) {
                LOG.error("{} woken up unexpectedly; it stops reading", name, e);
            }
        } catch (RuntimeException e) {
            LOG.error("{} could not create its consumer; it does not read: {}", name, ReaderRetry.describe(e));
        } finally {
            KafkaConsumer<K, V> c = consumer;
            if (c != null) {
                try {
                    c.close(Duration.ofSeconds(5));
                } catch (RuntimeException e) {
                    LOG.debug("{}: closing its consumer failed", name, e);
                }
            }
        }
    }

    /** Waits {@code wait} unless closed meanwhile; false when the loop was closed (it should end). */
    private boolean pause(Duration wait) {
        try {
            return !closing.await(wait.toMillis(), TimeUnit.MILLISECONDS) && !closed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed.set(true);
            return false;
        }
    }

    /** Stops the loop: wakes a poll, ends a pause, and waits for the thread (bounded). */
    @Override
    public void close() {
        closed.set(true);
        closing.countDown();
        KafkaConsumer<K, V> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
