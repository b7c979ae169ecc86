package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeReport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A probe engine for scheduler tests: each probe takes the scripted time on the manual timer and then
 * reports the scripted outcome. A {@code null} answer leaves the probe running until {@link #completeAll}.
 */
final class ScriptedEngine implements ProbeEngine {

    /** How one probe of a target behaves. */
    record Answer(Outcome outcome, Duration takes) {
    }

    /** One probe start as the engine saw it. */
    record Start(String targetId, long atMillis, TargetSpec spec) {
    }

    private final ManualTimer timer;
    private final Function<TargetSpec, Answer> script;
    private final List<Start> starts = new ArrayList<>();
    private final List<CompletableFuture<ProbeReport>> hanging = new ArrayList<>();

    ScriptedEngine(ManualTimer timer, Function<TargetSpec, Answer> script) {
        this.timer = timer;
        this.script = script;
    }

    @Override
    public CompletableFuture<ProbeReport> probe(TargetSpec target) {
        starts.add(new Start(target.id(), timer.nowMillis(), target));
        Answer answer = script.apply(target);
        CompletableFuture<ProbeReport> result = new CompletableFuture<>();
        if (answer == null) {
            hanging.add(result);
            return result;
        }
        long micros = answer.takes().toNanos() / 1000;
        if (answer.takes().isZero()) {
            result.complete(ProbeReport.of(answer.outcome(), micros, null));
        } else {
            timer.newTimeout(t -> result.complete(ProbeReport.of(answer.outcome(), micros, null)),
                    answer.takes().toNanos(), TimeUnit.NANOSECONDS);
        }
        return result;
    }

    List<Start> starts() {
        return starts;
    }

    List<Long> startMillis(String targetId) {
        return starts.stream().filter(s -> s.targetId().equals(targetId)).map(Start::atMillis).toList();
    }

    void completeAll(Outcome outcome) {
        List<CompletableFuture<ProbeReport>> now = new ArrayList<>(hanging);
        hanging.clear();
        now.forEach(f -> f.complete(ProbeReport.of(outcome, 0, null)));
    }

    @Override
    public void close() {
    }
}
