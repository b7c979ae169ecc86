package io.healthmesh.e2e;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Takes backends down and up in turn on a thread of its own, one at a time, each down for one outage (always its
 * full length) and then up for as long again before the next one goes down, until stopped; records when each outage
 * began and ended.
 * Bounded: at most {@value #MAX_OUTAGES} outages.
 */
final class Flipper {

    /** One backend outage, from its stop to its start again (epoch ms of the test JVM, the containers' clock). */
    record Outage(Backend backend, long downAtMs, long upAtMs) {
        @Override
        public String toString() {
            return backend.containerName + " " + Instant.ofEpochMilli(downAtMs) + ".." + Instant.ofEpochMilli(upAtMs);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(Flipper.class);
    private static final int MAX_OUTAGES = 200;

    private final RollingStack stack;
    private final List<Backend> backends;
    private final Duration outage;
    private final List<Outage> outages = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private Flipper(RollingStack stack, List<Backend> backends, Duration outage) {
        this.stack = stack;
        this.backends = List.copyOf(backends);
        this.outage = outage;
        this.thread = new Thread(this::run, "flipper");
        this.thread.setDaemon(true);
    }

    static Flipper start(RollingStack stack, List<Backend> backends, Duration outage) {
        Flipper f = new Flipper(stack, backends, outage);
        f.thread.start();
        return f;
    }

    private void run() {
        try {
            for (int n = 0; running && n < MAX_OUTAGES; n++) {
                Backend b = backends.get(n % backends.size());
                long down = System.currentTimeMillis();
                stack.stopBackend(b);
                try {
                    Thread.sleep(outage.toMillis()); // an outage always lasts its full length
                } finally {
                    stack.startBackend(b);
                    outages.add(new Outage(b, down, System.currentTimeMillis()));
                }
                pause(outage);
            }
        } catch (InterruptedException e) {
            // stop() asked us to end: the backend of the last outage is up again (finally above)
        } catch (RuntimeException e) {
            LOG.error("flipper stopped", e);
        }
    }

    private void pause(Duration d) throws InterruptedException {
        long until = System.nanoTime() + d.toNanos();
        while (running && System.nanoTime() < until) {
            Thread.sleep(100);
        }
    }

    /** Ends the flipping with every backend up; returns the outages it made. */
    List<Outage> stop() throws InterruptedException {
        running = false;
        thread.join(outage.toMillis() + 30_000);
        for (Backend b : backends) {
            stack.startBackend(b);
        }
        return new ArrayList<>(outages);
    }
}
