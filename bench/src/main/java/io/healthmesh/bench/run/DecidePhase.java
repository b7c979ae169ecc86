package io.healthmesh.bench.run;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A whole fleet going from DETECTING to decided: one aggregator and one prober start (each in its own JVM); once both
 * have said ready ({@link Readiness}) for 10 s, the whole fleet is applied at once, as a platform team applies it to a running system,
 * and a {@link DecisionWatch} times each target's first probe and its first decided event. The phase ends when every target is decided, when its patience runs out, or when a
 * worker stops. Every 30 s it logs and keeps a progress sample: targets probed and decided, the aggregator's lag on
 * the results and the definitions, the prober's on the definitions, the load average.
 */
public final class DecidePhase {

    private static final Logger LOG = LoggerFactory.getLogger(DecidePhase.class);
    private static final long SAMPLE_EVERY_MS = 30_000;
    private static final long LAG_EVERY_MS = 5_000;
    /** How long the workers may take to start before the fleet is applied. */
    private static final Duration STARTUP = Duration.ofMinutes(5);
    /** How long both must have said ready before the fleet is applied. */
    private static final Duration READY_HOLD = Duration.ofSeconds(10);

    /** One progress sample; lags are records not yet committed by the group (-1 where they could not be read). */
    public record Sample(long elapsedSeconds, int probed, int decided, long aggregatorResultsLag,
                         long aggregatorDefinitionsLag, long proberDefinitionsLag, String load) {
    }

    /**
     * What the phase saw.
     *
     * @param startSeconds            seconds from starting the workers to both ready (held for 10 s)
     * @param applySeconds            seconds the apply of the whole fleet took (written and acknowledged)
     * @param summary                 the decision figures at the end
     * @param samples                 the progress samples, the last taken at the end
     * @param proberReadSeconds       seconds from the apply's start until the prober's group had committed every definition (NaN if never)
     * @param aggregatorReadSeconds   the same for the aggregator's group
     * @param seconds                 how long the phase ran after the apply began
     * @param ending                  why it ended
     * @param maxResultsLag           the aggregator's largest lag on the results topic (read every 5 s)
     * @param maxResultsLagSeconds    when that was, seconds after the apply began
     * @param heldResults           the aggregator's {@code unknown_target_results_total} samples at the end
     * @param proberRssBytes          the prober's resident memory at the end
     * @param aggregatorRssBytes      the aggregator's
     */
    public record Outcome(double startSeconds, double applySeconds, DecisionTimes.Summary summary, List<Sample> samples, double proberReadSeconds,
                          double aggregatorReadSeconds, double seconds, String ending, long maxResultsLag,
                          long maxResultsLagSeconds, long proberRssBytes, long aggregatorRssBytes,
                          List<String> heldResults) {
    }

    /** Starts a worker in a new JVM. */
    @FunctionalInterface
    public interface Starter {
        ChildJvm start() throws IOException;
    }

    /** Applies the whole fleet, returning once every definition is acknowledged; returns the seconds it took. */
    @FunctionalInterface
    public interface Apply {
        double apply() throws Exception;
    }

    /** The aggregator's count of results it held for their definition, and of those it applied. */
    public static final String HELD_METRIC = "healthmesh_aggregator_unknown_target_results_total";

    private DecidePhase() {
    }

    /**
     * @param intervalMs      the targets' probe interval
     * @param intervals       the bound, in intervals after each target's first probe
     * @param patience        how long the phase may run
     * @param aggregatorGroup the aggregator's application id (its consumer group)
     * @param readiness       the workers' {@code /readyz}: the fleet is applied once both say ready
     * @param fleet           applies the fleet, once both workers run
     */
    public static Outcome run(BenchStack stack, DecisionWatch watch, int targets, long intervalMs, int intervals,
                              Duration patience, String aggregatorGroup, Starter aggregator, Starter prober,
                              List<URI> readiness, Apply fleet) throws Exception {
        Lags lags = new Lags(stack, aggregatorGroup);
        List<Sample> samples = new ArrayList<>();
        double proberRead = Double.NaN;
        double aggregatorRead = Double.NaN;
        long maxLag = 0;
        long maxLagAt = 0;
        Lags.Reading lag = null;
        String ending = "patience (" + patience.toSeconds() + " s) ran out";
        long launched = System.nanoTime();
        try (ChildJvm agg = aggregator.start(); ChildJvm prb = prober.start()) {
            if (!Readiness.await(readiness, READY_HOLD, STARTUP)) {
                throw new IllegalStateException("the workers were not ready (" + readiness + ") for "
                        + READY_HOLD.toSeconds() + " s within " + STARTUP);
            }
            double startSeconds = (System.nanoTime() - launched) / 1e9;
            LOG.info("decide: both workers running after {} s; applying the fleet", startSeconds);
            long start = System.currentTimeMillis();
            long deadline = start + patience.toMillis();
            long nextLag = start;
            long nextSample = start + SAMPLE_EVERY_MS;
            double applySeconds = fleet.apply();
            while (true) {
                long now = System.currentTimeMillis();
                if (watch.decided() >= targets) {
                    ending = "every target decided";
                    break;
                }
                if (!agg.isAlive() || !prb.isAlive()) {
                    ending = (agg.isAlive() ? "the prober" : "the aggregator") + " stopped";
                    break;
                }
                if (now >= deadline) {
                    break;
                }
                if (now >= nextLag) {
                    lag = lags.read();
                    double elapsed = (now - start) / 1e3;
                    if (Double.isNaN(proberRead) && lag.proberDefinitions() == 0) {
                        proberRead = elapsed;
                        LOG.info("decide: the prober has read every definition after {} s", elapsed);
                    }
                    if (Double.isNaN(aggregatorRead) && lag.aggregatorDefinitions() == 0) {
                        aggregatorRead = elapsed;
                        LOG.info("decide: the aggregator has read every definition after {} s", elapsed);
                    }
                    if (lag.aggregatorResults() > maxLag) {
                        maxLag = lag.aggregatorResults();
                        maxLagAt = (now - start) / 1000;
                    }
                    nextLag = now + LAG_EVERY_MS;
                }
                if (now >= nextSample) {
                    samples.add(sample(now - start, watch, lag, targets));
                    nextSample = now + SAMPLE_EVERY_MS;
                }
                TimeUnit.MILLISECONDS.sleep(250);
            }
            long end = System.currentTimeMillis();
            Lags.Reading last = lags.read();
            samples.add(sample(end - start, watch, last, targets));
            // read every 5 s: a group that caught up since the last reading did so by the end at the latest
            if (Double.isNaN(proberRead) && last.proberDefinitions() == 0) {
                proberRead = (end - start) / 1e3;
            }
            if (Double.isNaN(aggregatorRead) && last.aggregatorDefinitions() == 0) {
                aggregatorRead = (end - start) / 1e3;
            }
            // readiness.get(0) is the aggregator's /readyz: its /metrics says what became of results read early
            List<String> held = MetricLines.read(readiness.get(0).resolve("/metrics"), HELD_METRIC);
            long proberRss = RestorePhase.rss(prb.pid());
            long aggregatorRss = RestorePhase.rss(agg.pid());
            DecisionTimes.Summary summary = watch.summary(intervalMs, intervals);
            LOG.info("decide: ended after {} s: {}; {}", (end - start) / 1000, ending, summary);
            return new Outcome(startSeconds, applySeconds, summary, samples, proberRead, aggregatorRead,
                    (end - start) / 1e3, ending, maxLag, maxLagAt, proberRss, aggregatorRss, held);
        }
    }

    private static Sample sample(long elapsedMs, DecisionWatch watch, Lags.Reading lag, int targets) {
        Lags.Reading l = lag == null ? new Lags.Reading(-1, -1, -1) : lag;
        Sample s = new Sample(elapsedMs / 1000, watch.probed(), watch.decided(), l.aggregatorResults(),
                l.aggregatorDefinitions(), l.proberDefinitions(), ProberScalePhase.load());
        LOG.info("decide: after {} s: {} of {} targets probed, {} decided; aggregator behind by {} results and {}"
                        + " definitions, prober by {} definitions; load {}", s.elapsedSeconds(), s.probed(), targets,
                s.decided(), s.aggregatorResultsLag(), s.aggregatorDefinitionsLag(), s.proberDefinitionsLag(),
                s.load());
        return s;
    }

    /** The two workers' groups' lags on their inputs. */
    private record Lags(BenchStack stack, String aggregatorGroup) {

        record Reading(long aggregatorResults, long aggregatorDefinitions, long proberDefinitions) {
        }

        Reading read() {
            return new Reading(lag(aggregatorGroup, stack.topics().probeResults()),
                    lag(aggregatorGroup, stack.topics().targets()),
                    lag(WorkerSettings.PROBER_GROUP, stack.topics().targets()));
        }

        private long lag(String group, String topic) {
            try {
                return GroupLag.lag(stack.admin(), group, topic);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            } catch (Exception e) {
                LOG.warn("decide: lag of {} on {} not read: {}", group, topic, e.toString());
                return -1;
            }
        }
    }
}
