package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.egress.AddressGate;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Runs probes, the one place that owns what every protocol shares: arms the deadline, passes the address
 * through the {@link AddressGate} (resolution, then the deny list), hands the allowed address to the
 * protocol's {@link Prober} and turns anything thrown into a verdict. Timing, the single verdict and the
 * closing of channels live in the {@link ProbeContext} it creates.
 */
final class ProbeRunner {

    private final Map<Protocol, Prober> probers;
    private final AddressGate gate;
    private final LoopWatch watch;
    private final double stallFraction;
    private final Set<ProbeContext> inFlight = ConcurrentHashMap.newKeySet();
    /** Each loop's deadline lanes; a loop not in it (a runner built for tests) schedules a task per deadline. */
    private final Map<EventExecutor, DeadlineLanes> deadlines;

    /** A runner that watches no loop (no stall makes a probe inconclusive). */
    ProbeRunner(Map<Protocol, Prober> probers, AddressGate gate) {
        this(probers, gate, LoopWatch.none(), ProbeEngineConfig.DEFAULT_STALL_FRACTION, Map.of());
    }

    /**
     * @param watch the stalls of the event loops probes run on
     * @param stallFraction share of {@code min(interval, timeout)} a loop may stall before a timeout is inconclusive
     * @param deadlines each loop's deadline lanes ({@link DeadlineLanes#forEach}), never changed afterwards
     */
    ProbeRunner(Map<Protocol, Prober> probers, AddressGate gate, LoopWatch watch, double stallFraction,
                Map<EventExecutor, DeadlineLanes> deadlines) {
        this.probers = new EnumMap<>(probers);
        this.gate = requireNonNull(gate, "gate");
        this.watch = requireNonNull(watch, "watch");
        this.stallFraction = stallFraction;
        this.deadlines = requireNonNull(deadlines, "deadlines");
    }

    /** Starts a probe on {@code loop}; the future completes on that loop and never exceptionally. */
    CompletableFuture<ProbeReport> run(TargetSpec target, EventLoop loop) {
        return run(target, loop, null);
    }

    /** {@link #run(TargetSpec, EventLoop)} watched step by step by {@code trace} ({@code null}: by no one). */
    CompletableFuture<ProbeReport> run(TargetSpec target, EventLoop loop, ProbeTrace trace) {
        long stallBound = TimeUnit.MILLISECONDS.toNanos(
                InconclusiveCause.boundMs(stallFraction, target.intervalMs(), target.timeoutMs()));
        ProbeContext probe = new ProbeContext(target, loop, System.nanoTime(), watch.of(loop), stallBound,
                deadlines.get(loop), trace);
        inFlight.add(probe);
        // the caller gets the stage after the removal, not the probe's own future: a future runs its last-registered
        // dependants first, so a caller waiting on the probe's future could see its report while the probe still
        // counted as in flight (ChannelFreeConnectCheckTest read 1 once)
        CompletableFuture<ProbeReport> report = probe.result().whenComplete((r, failure) -> inFlight.remove(probe));
        try {
            loop.execute(() -> start(probe));
        } catch (RuntimeException e) {
            probe.result().complete(ProbeReport.of(Outcome.INCONCLUSIVE, 0,
                    InconclusiveCause.INTERNAL_ERROR.detail("engine is shutting down")));
        }
        return report;
    }

    /** Probes started and not yet ended. */
    int inFlight() {
        return inFlight.size();
    }

    /**
     * Ends every probe in flight as {@code INCONCLUSIVE} ({@code internal-error}) and closes its sockets on its loop
     * ({@link ProbeContext#abort}): used when the engine closes, because a shut-down event loop would never run their
     * deadlines, and a loop the caller owns and keeps running would hold their sockets open until then.
     */
    void abortAll(String reason) {
        for (ProbeContext probe : inFlight) {
            probe.abort(reason);
        }
    }

    private void start(ProbeContext probe) {
        try {
            probe.armDeadline();
            Prober prober = probers.get(probe.target().protocol());
            if (prober == null) {
                probe.finish(Outcome.INCONCLUSIVE, InconclusiveCause.INTERNAL_ERROR.detail(
                        "no prober for protocol " + probe.target().protocol()));
                return;
            }
            gate.resolveAllowed(probe, probe.target().address(), address -> prober.probe(probe, address));
        } catch (RuntimeException e) {
            probe.internalError(e);
        }
    }
}
