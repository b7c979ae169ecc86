package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheduler's share of "never vote against a target for the prober's own trouble" (BEHAVIOUR.md section 4). */
class InconclusiveSchedulingTest {

    private final ManualTimer timer = new ManualTimer();
    private final RecordingListener listener = new RecordingListener();

    private ProbeScheduler scheduler(ProbeEngine engine, int maxInFlight) {
        return new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0, maxInFlight, 0,
                0.25);
    }

    private static TargetSpec target(String id, Protocol protocol, int intervalMs, int timeoutMs) {
        return TargetSpec.of(id, "g", "127.0.0.1", 80, protocol).withTiming(intervalMs, timeoutMs);
    }

    @Test
    void aTimeoutOfAProbeThatStartedLaterThanTheBoundIsInconclusive() {
        // bound: 0.25 x min(5000, 2000) = 500 ms; "second" waits 600 ms for the only slot, then times out
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> spec.id().equals("first")
                ? new Answer(Outcome.SUCCESS, Duration.ofMillis(600)) : new Answer(Outcome.TIMEOUT, Duration.ofSeconds(2)));
        ProbeScheduler scheduler = scheduler(engine, 1);
        scheduler.schedule(target("first", Protocol.HTTP, 5_000, 2_000));
        scheduler.schedule(target("second", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofMillis(3_000));

        CompletedProbe late = listener.of("second").get(0);
        assertThat(late.schedulingLagMicros()).isEqualTo(600_000);
        assertThat(late.report().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(late.report().detail()).isEqualTo("late-start: started 600 ms late (bound 500 ms); TIMEOUT");
        assertThat(InconclusiveCause.ofDetail(late.report().detail())).contains(InconclusiveCause.LATE_START);
    }

    @Test
    void aLateProbeThatTheTargetAnsweredKeepsItsVerdict() {
        // a refusal and a success are the target's own answers, however late the question was asked
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> switch (spec.id()) {
            case "first" -> new Answer(Outcome.SUCCESS, Duration.ofMillis(600));
            case "refused" -> new Answer(Outcome.CONNECTION_REFUSED, Duration.ofMillis(1));
            default -> new Answer(Outcome.SUCCESS, Duration.ofMillis(1));
        });
        ProbeScheduler scheduler = scheduler(engine, 1);
        scheduler.schedule(target("first", Protocol.HTTP, 5_000, 2_000));
        scheduler.schedule(target("refused", Protocol.HTTP, 5_000, 2_000));
        scheduler.schedule(target("ok", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofMillis(1_000));

        assertThat(listener.of("refused").get(0).schedulingLagMicros()).isEqualTo(600_000);
        assertThat(listener.of("refused").get(0).report().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(listener.of("ok").get(0).schedulingLagMicros()).isGreaterThan(500_000);
        assertThat(listener.of("ok").get(0).report().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aTimeoutWithinTheBoundStaysATimeout() {
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> spec.id().equals("first")
                ? new Answer(Outcome.SUCCESS, Duration.ofMillis(400)) : new Answer(Outcome.TIMEOUT, Duration.ofSeconds(2)));
        ProbeScheduler scheduler = scheduler(engine, 1);
        scheduler.schedule(target("first", Protocol.HTTP, 5_000, 2_000));
        scheduler.schedule(target("second", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofMillis(3_000));

        assertThat(listener.of("second").get(0).report().outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void aSlotSkippedAtTheInFlightBoundIsReportedInconclusive() {
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> null);
        ProbeScheduler scheduler = scheduler(engine, 1);
        scheduler.schedule(target("a", Protocol.TCP, 1_000, 1_000));
        scheduler.schedule(target("b", Protocol.TCP, 1_000, 1_000));

        timer.advance(Duration.ZERO);

        assertThat(listener.skips(SkipReason.IN_FLIGHT_LIMIT)).isEqualTo(1);
        CompletedProbe refused = listener.of("b").get(0);
        assertThat(refused.report().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(InconclusiveCause.ofDetail(refused.report().detail())).contains(InconclusiveCause.QUEUE_FULL);
        assertThat(listener.of("a")).isEmpty();
    }

    @Test
    void anEngineThatFailsIsAnInternalErrorNotAFailure() {
        ProbeEngine broken = new ProbeEngine() {
            @Override
            public CompletableFuture<ProbeReport> probe(TargetSpec target) {
                return target.id().equals("throws") ? thrown() : CompletableFuture.failedFuture(new IllegalStateException("bug"));
            }

            private CompletableFuture<ProbeReport> thrown() {
                throw new IllegalStateException("broken deployment");
            }

            @Override
            public void close() {
            }
        };
        ProbeScheduler scheduler = scheduler(broken, 10);
        scheduler.schedule(target("throws", Protocol.TCP, 1_000, 1_000));
        scheduler.schedule(target("fails", Protocol.HTTP, 1_000, 1_000));

        timer.advance(Duration.ZERO);

        for (String id : new String[] {"throws", "fails"}) {
            ProbeReport report = listener.of(id).get(0).report();
            assertThat(report.outcome()).as(id).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(InconclusiveCause.ofDetail(report.detail())).as(id).contains(InconclusiveCause.INTERNAL_ERROR);
        }
        assertThat(scheduler.inFlight()).isZero();
    }
}
