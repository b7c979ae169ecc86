package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.netty.channel.EventLoop;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

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
    private final Set<ProbeContext> inFlight = ConcurrentHashMap.newKeySet();

    ProbeRunner(Map<Protocol, Prober> probers, AddressGate gate) {
        this.probers = new EnumMap<>(probers);
        this.gate = requireNonNull(gate, "gate");
    }

    /** Starts a probe on {@code loop}; the future completes on that loop and never exceptionally. */
    CompletableFuture<ProbeReport> run(TargetSpec target, EventLoop loop) {
        ProbeContext probe = new ProbeContext(target, loop, System.nanoTime());
        inFlight.add(probe);
        probe.result().whenComplete((report, failure) -> inFlight.remove(probe));
        try {
            loop.execute(() -> start(probe));
        } catch (RuntimeException e) {
            probe.result().complete(ProbeReport.of(Outcome.ERROR, 0, "engine is shutting down"));
        }
        return probe.result();
    }

    /** Probes started and not yet ended. */
    int inFlight() {
        return inFlight.size();
    }

    /**
     * Ends every probe in flight with {@code ERROR}: used when the engine closes, because a shut-down event loop
     * would never run their deadlines and their futures would never complete.
     */
    void abortAll(String reason) {
        for (ProbeContext probe : inFlight) {
            probe.result().complete(ProbeReport.of(Outcome.ERROR, 0, reason));
        }
    }

    private void start(ProbeContext probe) {
        try {
            probe.armDeadline();
            Prober prober = probers.get(probe.target().protocol());
            if (prober == null) {
                probe.finish(Outcome.ERROR, "no prober for protocol " + probe.target().protocol());
                return;
            }
            gate.resolveAllowed(probe, probe.target().address(), address -> prober.probe(probe, address));
        } catch (RuntimeException e) {
            probe.fail(e);
        }
    }
}
