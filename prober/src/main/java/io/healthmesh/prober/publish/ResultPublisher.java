package io.healthmesh.prober.publish;

import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.schema.ProbeResult;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Publishes finished probes, keyed by target id, to the probe-results topic.
 *
 * <p>Probers call {@link #offer}, which only appends to a bounded {@link ResultBuffer} (when full,
 * the oldest result that cannot decide a state is dropped first, counted) and never blocks. One publisher thread takes them in batches of up to {@value #BATCH}, gathered for
 * at most {@link #GATHER_NANOS} after the first, serializes them and hands them to the producer, keeping at
 * most {@code maxUnacknowledged} results unacknowledged inside it: while Kafka is away, results pile up in
 * the bounded buffer, where the drop-oldest rule applies, not in the producer. At most
 * {@code capacity + BATCH + maxUnacknowledged} results are held in all. A send the producer refuses
 * (metadata not available within {@code max.block.ms}, the schema registry unreachable) puts the result back
 * at the head and retries after {@link #RETRY_BACKOFF}, so results keep their order.
 *
 * <p>Two things make the producer send what it holds without waiting for its linger. A second thread, the flusher,
 * does it ({@code Producer.flush}, which blocks that thread, not this one, until the batches are acknowledged);
 * requests that come while a flush runs are served by one more flush after it.
 * <ul>
 *   <li>A result that may change its target's state ({@link CompletedProbe#mayDecide()}), when the publisher is built
 *   to send those at once: it ends the gathering and asks for a flush once handed to the producer. Every other result
 *   waits for the linger, so a long linger makes batches large without delaying state changes.</li>
 *   <li>A full window: when {@code maxUnacknowledged} results are already in the producer, waiting for their linger
 *   would cap the rate at {@code maxUnacknowledged / (linger + round trip)} (docs/BENCHMARKS.md, "Publishing
 *   cost"). The publisher asks for a flush and then waits for a permit.</li>
 * </ul>
 */
public final class ResultPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ResultPublisher.class);
    /** The most results the worker lets the producer hold unacknowledged. */
    public static final int MAX_UNACKNOWLEDGED = 1_024;
    static final Duration RETRY_BACKOFF = Duration.ofMillis(500);
    private static final long POLL_MS = 100;
    /** The most results the publisher takes off the buffer at once. */
    static final int BATCH = 64;
    /**
     * How long the publisher, woken by a result, waits for more before it hands them to the producer: at most this
     * much is added to a result's way to Kafka (the producer then lingers {@code publish.linger.ms}, 10 ms by
     * default), and the probing threads wake the publisher once per batch, not once per result.
     */
    static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Serializer<ProbeResult> serializer;
    private final String region;
    private final String proberId;
    private final Runnable onDropped;
    private final Runnable onFailed;
    private final ResultBuffer<CompletedProbe> buffer;
    private final Semaphore unacknowledged;
    private final Thread thread;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final boolean decidingAtOnce;
    private final Consumer<Flush> onFlush;
    /** Set by the publisher thread when it wants a flush, cleared by the flusher before it flushes. */
    private final AtomicBoolean flushWanted = new AtomicBoolean();
    private final Thread flusher;
    private volatile boolean flusherStopping;
    private volatile long drainDeadlineNanos;
    private volatile boolean failing;
    /** Publisher thread only. */
    private boolean refusing;

    /**
     * @param producer idempotent producer of byte arrays; not closed here
     * @param capacity results the buffer holds before it drops the oldest
     * @param maxUnacknowledged results handed to the producer and not yet acknowledged, at most
     * @param onDropped counts a result dropped from the full buffer
     * @param onFailed counts a result Kafka did not accept
     */
    public ResultPublisher(Producer<byte[], byte[]> producer, String topic, Serializer<ProbeResult> serializer,
                           String region, String proberId, int capacity, int maxUnacknowledged,
                           Runnable onDropped, Runnable onFailed) {
        this(producer, topic, serializer, region, proberId, capacity, maxUnacknowledged, onDropped, onFailed, false,
                why -> { });
    }

    /**
     * @param decidingAtOnce send results that may change a target's state at once (setting {@code publish.urgent})
     *     rather than after the producer's linger
     * @param onFlush counts each flush asked for, by why
     */
    public ResultPublisher(Producer<byte[], byte[]> producer, String topic, Serializer<ProbeResult> serializer,
                           String region, String proberId, int capacity, int maxUnacknowledged,
                           Runnable onDropped, Runnable onFailed, boolean decidingAtOnce, Consumer<Flush> onFlush) {
        this.producer = requireNonNull(producer, "producer");
        this.topic = requireNonNull(topic, "topic");
        this.serializer = requireNonNull(serializer, "serializer");
        this.region = requireNonNull(region, "region");
        this.proberId = requireNonNull(proberId, "proberId");
        this.onDropped = requireNonNull(onDropped, "onDropped");
        this.onFailed = requireNonNull(onFailed, "onFailed");
        this.buffer = new ResultBuffer<>(capacity, CompletedProbe::mayDecide);
        if (maxUnacknowledged < 1) {
            throw new IllegalArgumentException("maxUnacknowledged: " + maxUnacknowledged + " (expected: >= 1)");
        }
        this.unacknowledged = new Semaphore(maxUnacknowledged);
        this.thread = new Thread(this::run, "healthmesh-prober-publisher");
        this.thread.setDaemon(true);
        this.decidingAtOnce = decidingAtOnce;
        this.onFlush = requireNonNull(onFlush, "onFlush");
        this.flusher = new Thread(this::flushWhenAsked, "healthmesh-prober-flusher");
        this.flusher.setDaemon(true);
    }

    /** A publisher letting the producer hold at most {@code min(MAX_UNACKNOWLEDGED, capacity)} unacknowledged. */
    public ResultPublisher(Producer<byte[], byte[]> producer, String topic, Serializer<ProbeResult> serializer,
                           String region, String proberId, int capacity, Runnable onDropped, Runnable onFailed) {
        this(producer, topic, serializer, region, proberId, capacity, Math.min(MAX_UNACKNOWLEDGED, capacity),
                onDropped, onFailed);
    }

    public ResultPublisher start() {
        thread.start();
        flusher.start();
        return this;
    }

    /** Queues a result for publishing; never blocks. */
    public void offer(CompletedProbe probe) {
        if (buffer.offer(probe, sendsAtOnce(probe))) {
            onDropped.run();
        }
    }

    /** Whether this result skips the gathering and the linger ({@code publish.urgent} and it may decide). */
    private boolean sendsAtOnce(CompletedProbe probe) {
        return decidingAtOnce && probe.mayDecide();
    }

    /** Results waiting in the buffer. */
    public int buffered() {
        return buffer.size();
    }

    private void run() {
        ArrayDeque<CompletedProbe> batch = new ArrayDeque<>(BATCH);
        try {
            while (stop.getCount() > 0 || (buffer.size() > 0 && System.nanoTime() - drainDeadlineNanos < 0)) {
                if (buffer.takeBatch(batch, BATCH, TimeUnit.MILLISECONDS.toNanos(POLL_MS), GATHER_NANOS) == 0) {
                    continue;
                }
                Handover handover = Handover.SENT;
                while (handover == Handover.SENT && !batch.isEmpty()) {
                    handover = publishOrDrop(batch.peekFirst());
                    if (handover == Handover.SENT) {
                        batch.pollFirst();
                    }
                }
                // what the producer could not take now goes back to the head, in order, with the rest of the batch
                while (!batch.isEmpty()) {
                    putBack(batch.pollLast());
                }
                if (handover == Handover.REFUSED) {
                    stop.await(RETRY_BACKOFF.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("result publisher stopped unexpectedly", e);
        } finally {
            stopped.countDown();
        }
    }

    /** {@link #publish}, with a result that cannot be turned into a record dropped and counted. */
    private Handover publishOrDrop(CompletedProbe next) throws InterruptedException {
        try {
            return publish(next);
        } catch (InterruptedException e) {
            throw e;
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                throw t;   // out of memory or a broken JVM: the process must end
            }
            // one result that cannot be turned into a record must not stop publishing (BEHAVIOUR.md section 9)
            onFailed.run();
            LOG.warn("result of {} cannot be published, dropped: {}", next.target().id(), t.toString());
            return Handover.SENT;
        }
    }

    /** What became of one attempt to hand a result to the producer. */
    private enum Handover {
        /** Handed over (or dropped for good and counted): take the next one. */
        SENT,
        /** Too many unacknowledged already: keep it and try again at once (the wait for a permit was the pause). */
        NO_PERMIT,
        /** Kafka or the registry cannot take it now: keep it and back off. */
        REFUSED
    }

    private Handover publish(CompletedProbe probe) throws InterruptedException {
        if (!unacknowledged.tryAcquire()) {
            askForFlush(Flush.WINDOW_FULL);   // rather than let the results in the producer wait for their linger
            if (!unacknowledged.tryAcquire(POLL_MS, TimeUnit.MILLISECONDS)) {
                return Handover.NO_PERMIT;   // Kafka is slow to acknowledge: results wait in the bounded buffer
            }
        }
        String key = probe.target().id();
        Delivery delivery = new Delivery(key);
        try {
            byte[] value = serializer.serialize(topic, ProbeResults.toAvro(probe, region, proberId));
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value), delivery);
        } catch (RuntimeException e) {
            delivery.refused = e;
        }
        delivery.sending = false;
        if (delivery.refused == null) {
            refusing = false;
            if (sendsAtOnce(probe)) {
                askForFlush(Flush.URGENT);
            }
            return Handover.SENT;
        }
        unacknowledged.release();
        if (delivery.refused instanceof RetriableException || delivery.refused instanceof SerializationException) {
            if (!refusing) {
                refusing = true;   // one warning per outage; results wait in the buffer meanwhile
                LOG.warn("cannot publish results now, retrying every {} while results wait in the buffer: {}",
                        RETRY_BACKOFF, delivery.refused.toString());
            }
            return Handover.REFUSED;
        }
        // anything else will never succeed for this result (a closed producer, a record Kafka rejects)
        onFailed.run();
        LOG.warn("result of {} cannot be published, dropped: {}", key, delivery.refused.toString());
        return Handover.SENT;
    }

    /**
     * The callback of one send. The producer reports some refusals (no metadata within {@code max.block.ms})
     * through the callback while {@code send} is still running, on this thread: those are kept to be retried
     * from the buffer rather than counted as lost.
     */
    private final class Delivery implements Callback {
        private final String key;
        private boolean sending = true;
        private Exception refused;

        Delivery(String key) {
            this.key = key;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception error) {
            if (sending && error != null && Thread.currentThread() == thread) {
                refused = error;
                return;
            }
            unacknowledged.release();
            if (error == null) {
                failing = false;
                return;
            }
            onFailed.run();
            if (!failing) {
                failing = true;   // one warning per run of failures, not one per result
                LOG.warn("results not published (first: {}): {}", key, error.toString());
            } else {
                LOG.debug("result of {} not published: {}", key, error.toString());
            }
        }
    }

    /** Why the publisher asked the producer to send at once. */
    public enum Flush {
        /** A result that may change its target's state was handed over ({@code publish.urgent}). */
        URGENT,
        /** The producer held {@code maxUnacknowledged} results: no more could be handed over until some are sent. */
        WINDOW_FULL
    }

    /** Wakes the flusher, unless a flush is asked for already (then that one serves this request too). */
    private void askForFlush(Flush why) {
        if (flushWanted.compareAndSet(false, true)) {
            onFlush.accept(why);
            LockSupport.unpark(flusher);
        }
    }

    /** The flusher thread: a flush each time one is wanted, until {@link #close} stops it. */
    private void flushWhenAsked() {
        while (!flusherStopping) {
            if (!flushWanted.getAndSet(false)) {
                LockSupport.park(this);   // unparked by a result that may decide, or by close(); no idle wake-ups
                continue;
            }
            try {
                producer.flush();
            } catch (RuntimeException e) {
                if (flusherStopping || Thread.currentThread().isInterrupted()) {
                    return;   // close() interrupted a flush waiting for an absent Kafka
                }
                // the results themselves are not lost: the producer still holds them and sends them after its linger
                LOG.debug("flush of the producer failed: {}", e.toString());
                LockSupport.parkNanos(this, RETRY_BACKOFF.toNanos());
            }
        }
    }

    private void putBack(CompletedProbe probe) {
        if (buffer.putBack(probe)) {
            onDropped.run();
        }
    }

    /**
     * Stops taking new results off the buffer after trying, for at most {@code drain}, to hand the buffered
     * ones to the producer. Does not close the producer (its owner flushes and closes it afterwards).
     */
    public void close(Duration drain) {
        drainDeadlineNanos = System.nanoTime() + drain.toNanos();
        stop.countDown();
        try {
            if (!stopped.await(drain.toMillis() + 2 * POLL_MS + RETRY_BACKOFF.toMillis(), TimeUnit.MILLISECONDS)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopFlusher();
    }

    /** Stops the flusher; one still blocked in a flush (Kafka away) is interrupted rather than waited for. */
    private void stopFlusher() {
        if (!flusher.isAlive()) {
            return;
        }
        flusherStopping = true;
        LockSupport.unpark(flusher);
        try {
            flusher.join(2 * POLL_MS);
            if (flusher.isAlive()) {
                flusher.interrupt();
                flusher.join(2 * POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
