package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.slf4j.Logger;

import java.util.List;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The maintenance punctuation's emission, the same for the target task and the group task: after a pass of a
 * {@link MaintenanceWalk}, produces the event of every row whose window in force changed, each in isolation (one row
 * whose event fails is counted and logged, and the others are still produced; Kafka Streams' own exceptions go to the
 * task), and keeps a short punctuation going, every {@link TargetHealthProcessor#DRAIN_INTERVAL}, while the walk has
 * rows left.
 */
final class MaintenanceEmission {

    /** Produces the event of one row (a target or a group) at {@code nowMs}. */
    interface Emitter {
        void emit(String key, long nowMs);
    }

    private final String kind;
    private final Logger log;
    private ProcessorContext<?, ?> context;
    private AggregatorMetrics metrics;
    private CommitPacer.Registration paced;
    private Punctuator again;
    /** The punctuation going on with a walk, or {@code null} when none is under way. */
    private Cancellable walk;

    /**
     * @param kind what a row is, for the log ({@code "target"}, {@code "group"})
     * @param log the owning processor's logger
     */
    MaintenanceEmission(String kind, Logger log) {
        this.kind = requireNonNull(kind, "kind");
        this.log = requireNonNull(log, "log");
    }

    /**
     * At task start (a revived task's punctuations are gone): {@code again} is the owner's maintenance punctuation,
     * run again at the short interval while a walk goes on.
     */
    void init(ProcessorContext<?, ?> context, AggregatorMetrics metrics, CommitPacer.Registration paced,
              Punctuator again) {
        this.context = requireNonNull(context, "context");
        this.metrics = requireNonNull(metrics, "metrics");
        this.paced = requireNonNull(paced, "paced");
        this.again = requireNonNull(again, "again");
        this.walk = null;
    }

    /**
     * Produces the event of each of {@code changes} (named by {@code key}) with {@code emitter}, then starts or stops
     * the short punctuation as {@code walking} (the walk has rows left) says.
     */
    <C> void emit(List<C> changes, Function<C, String> key, Emitter emitter, long nowMs, boolean walking) {
        if (!changes.isEmpty()) {
            paced.processed(); // events written by a punctuation are as urgent as those of a record
        }
        for (C change : changes) {
            String id = key.apply(change);
            try {
                emitter.emit(id, nowMs);
            } catch (StreamsException e) {
                throw e; // Kafka Streams' own (a fenced producer, a migrated task): the task must handle it
            } catch (RuntimeException | StackOverflowError e) {
                metrics.punctuationFailed();
                log.warn("maintenance event of {} {} failed: {}", kind, RecordSafeHandlers.cut(id),
                        RecordSafeHandlers.describe(e));
            }
        }
        if (walking && walk == null) {
            walk = context.schedule(TargetHealthProcessor.DRAIN_INTERVAL, PunctuationType.WALL_CLOCK_TIME, again);
        } else if (!walking && walk != null) {
            walk.cancel();
            walk = null;
        }
    }
}
