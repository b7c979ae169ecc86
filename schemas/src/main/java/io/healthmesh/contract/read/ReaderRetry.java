package io.healthmesh.contract.read;

import io.healthmesh.core.retry.Backoff;
import io.healthmesh.core.secret.Redact;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How a topic reader that must never give up waits between attempts: each failure in a row waits longer (the
 * {@link Backoff} rule, 1 s doubling up to 30 s by default) and is logged once at WARN, without secrets; a success
 * starts over. {@link #waitingFor()} says why the reader is not reading, for operators (metrics, logs).
 */
public final class ReaderRetry {

    /** The default wait: 1 s after the first failure, doubling, at most 30 s. */
    public static final Backoff DEFAULT_BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    /** Waits for the given time; false when the reader was stopped meanwhile (it should end). */
    @FunctionalInterface
    public interface Pause {
        boolean await(Duration wait);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ReaderRetry.class);

    private final String reader;
    private final Backoff backoff;
    private final Pause pause;
    private int failures;
    private volatile String waitingFor;

    public ReaderRetry(String reader, Backoff backoff, Pause pause) {
        this.reader = requireNonNull(reader, "reader");
        this.backoff = requireNonNull(backoff, "backoff");
        this.pause = requireNonNull(pause, "pause");
    }

    /**
     * Records a failed attempt, logs it and waits the backoff.
     *
     * @param reason what went wrong, free of secrets (see {@link #describe(RuntimeException)})
     * @return false when the reader was stopped while waiting
     */
    public boolean failed(String reason) {
        failures++;
        waitingFor = requireNonNull(reason, "reason");
        Duration wait = backoff.after(failures);
        LOG.warn("{}: {}; trying again in {} ms (failure {} in a row)", reader, reason, wait.toMillis(), failures);
        return pause.await(wait);
    }

    /**
     * The reader waits for something that is not a failure (a topic that does not exist yet): says so in
     * {@link #waitingFor()} without counting a failure or waiting.
     */
    public void waiting(String reason) {
        waitingFor = requireNonNull(reason, "reason");
    }

    /** An attempt worked: the next failure waits the shortest time again. */
    public void succeeded() {
        failures = 0;
        waitingFor = null;
    }

    /** Why the reader is waiting, or null while it reads. */
    public String waitingFor() {
        return waitingFor;
    }

    /** An exception as a log-safe reason: its type and message with any user info (credentials) removed. */
    public static String describe(RuntimeException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + Redact.userInfo(message));
    }
}
