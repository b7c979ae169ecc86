package io.healthmesh.status.web;

import io.healthmesh.status.board.StatusBoard;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Pushes a {@link StatusBoard} to browsers as server-sent events. One push thread drains the board every
 * {@code interval} and writes the change as one {@code delta} event to every connected browser; a browser that
 * connects first receives the whole board as a {@code snapshot} event, taken by the same thread right after a drain,
 * so the deltas it receives next continue exactly from it (and a reconnecting browser simply gets a new snapshot).
 * Each browser has its own writer thread and a bounded queue: a browser that stops reading is dropped when its
 * queue is full, it never holds up the others. At most {@code maxClients} browsers are connected at once.
 */
public final class StatusStream implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusStream.class);
    private static final int QUEUE = 64;
    private static final Duration KEEPALIVE = Duration.ofSeconds(15);
    private static final byte[] CLOSE = new byte[0];

    /** One connected browser: where its events go, and what to do when it is gone. */
    public interface Sink {
        /** Writes and flushes; an exception means the browser is gone. */
        void write(byte[] event) throws IOException;

        /** Releases the connection. */
        void close();
    }

    private final StatusBoard board;
    private final Duration interval;
    private final ObjectMapper mapper;
    private final Semaphore slots;
    private final ConcurrentLinkedQueue<Client> pending = new ConcurrentLinkedQueue<>();
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final Thread pusher;
    private volatile boolean closed;

    public StatusStream(StatusBoard board, Duration interval, int maxClients, ObjectMapper mapper) {
        this.board = requireNonNull(board, "board");
        this.interval = requireNonNull(interval, "interval");
        this.mapper = requireNonNull(mapper, "mapper");
        if (maxClients < 1) {
            throw new IllegalArgumentException("maxClients: " + maxClients + " (expected: 1 or more)");
        }
        slots = new Semaphore(maxClients);
        pusher = new Thread(this::push, "healthmesh-status-push");
        pusher.setDaemon(true);
    }

    /** Starts the push thread. */
    public StatusStream start() {
        pusher.start();
        return this;
    }

    /**
     * Connects a browser; it receives a snapshot within one interval.
     *
     * @return false when {@code maxClients} are connected already (the caller answers 503)
     */
    public boolean connect(Sink sink) {
        requireNonNull(sink, "sink");
        if (closed || !slots.tryAcquire()) {
            return false;
        }
        Client client = new Client(sink);
        client.thread.start();
        pending.add(client);
        if (closed) { // closed meanwhile: close() may have missed it
            client.drop();
        }
        return true;
    }

    /** Browsers connected now. */
    public int connected() {
        return clients.size() + pending.size();
    }

    private void push() {
        long lastWrite = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(interval.toMillis());
                if (clients.isEmpty() && pending.isEmpty()) {
                    // nobody watches: building and encoding deltas over every target and group would only cost CPU
                    // the stream thread needs (measured: a tenth of the aggregator's CPU at 100,000 targets)
                    board.discardChanges();
                    continue;
                }
                StatusBoard.Delta delta = board.drain();
                if (!delta.isEmpty()) {
                    broadcast(event("delta", delta));
                    lastWrite = System.nanoTime();
                } else if (System.nanoTime() - lastWrite > KEEPALIVE.toNanos()) {
                    broadcast(": keepalive\n\n".getBytes(StandardCharsets.UTF_8));
                    lastWrite = System.nanoTime();
                }
                if (!pending.isEmpty()) {
                    byte[] snapshot = event("snapshot", board.snapshot());
                    for (Client c; (c = pending.poll()) != null; ) {
                        clients.add(c);
                        c.offer(snapshot);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                LOG.warn("status push failed; going on", e);
            }
        }
    }

    private void broadcast(byte[] event) {
        for (Client c : clients) {
            c.offer(event);
        }
    }

    private byte[] event(String name, Object body) throws IOException {
        byte[] json = mapper.writeValueAsBytes(body);
        byte[] head = ("event: " + name + "\ndata: ").getBytes(StandardCharsets.UTF_8);
        byte[] event = new byte[head.length + json.length + 2];
        System.arraycopy(head, 0, event, 0, head.length);
        System.arraycopy(json, 0, event, head.length, json.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }

    /** Disconnects every browser and stops the push thread. */
    @Override
    public void close() {
        closed = true;
        pusher.interrupt();
        try {
            pusher.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Client> all = new ArrayList<>(clients);
        all.addAll(pending);
        all.forEach(Client::drop);
    }

    /** A browser, with its own queue and writer thread. */
    private final class Client {
        private final Sink sink;
        private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE);
        private final Thread thread;
        private volatile boolean gone;

        Client(Sink sink) {
            this.sink = sink;
            this.thread = new Thread(this::write, "healthmesh-status-client");
            thread.setDaemon(true);
        }

        void offer(byte[] event) {
            if (!gone && !queue.offer(event)) {
                LOG.info("status page client too slow ({} events queued); disconnecting it", QUEUE);
                drop();
            }
        }

        void drop() {
            gone = true;
            clients.remove(this);
            pending.remove(this);
            queue.clear();
            queue.offer(CLOSE);
        }

        private void write() {
            try {
                while (!gone) {
                    byte[] event = queue.poll(1, TimeUnit.SECONDS);
                    if (event != null && event != CLOSE) {
                        sink.write(event);
                    }
                }
            } catch (IOException e) {
                LOG.debug("status page client gone: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                gone = true;
                clients.remove(this);
                pending.remove(this);
                sink.close();
                slots.release();
            }
        }
    }
}
