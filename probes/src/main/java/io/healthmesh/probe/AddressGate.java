package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;

import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Resolution plus deny list: the only way a probe gets an address to send to. The name is resolved off the
 * event loop; the resolved address is checked against the deny list, so that no packet leaves for a denied
 * destination ({@code BLOCKED_BY_POLICY}); a name that does not resolve ends the probe with {@code DNS_FAILURE}, a
 * resolver too busy to try ({@link ResolverBusyException}) with {@code INCONCLUSIVE}.
 * Used for the target and again for every HTTP redirect hop to another host.
 */
final class AddressGate {

    private final HostResolver resolver;
    private final DenyList denyList;

    AddressGate(HostResolver resolver, DenyList denyList) {
        this.resolver = requireNonNull(resolver, "resolver");
        this.denyList = requireNonNull(denyList, "denyList");
    }

    /** Resolves {@code host}; when the address is allowed, runs {@code next} with it on the probe's loop. */
    void resolveAllowed(ProbeContext probe, String host, AddressTask next) {
        probe.phase("resolving " + host);
        CompletableFuture<InetAddress> resolution;
        try {
            resolution = resolver.resolve(host);
        } catch (RuntimeException e) {
            resolution = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<InetAddress> lookup = resolution;
        probe.result().whenComplete((report, error) -> lookup.cancel(false)); // the deadline ends the lookup too
        resolution.whenComplete((address, failure) -> probe.execute(() -> {
            if (failure != null && (busy(failure) || FailureClassifier.isLocalTrouble(failure))) {
                probe.finish(Outcome.INCONCLUSIVE, (busy(failure) ? InconclusiveCause.QUEUE_FULL
                        : InconclusiveCause.INTERNAL_ERROR).detail("cannot resolve " + host + ": "
                        + FailureClassifier.detail(failure)));
                return;
            }
            if (failure != null) {
                probe.finish(Outcome.DNS_FAILURE, "cannot resolve " + host + ": " + FailureClassifier.detail(failure));
                return;
            }
            Optional<Cidr> denied = denyList.match(address);
            if (denied.isPresent()) {
                probe.finish(Outcome.BLOCKED_BY_POLICY, address.getHostAddress() + " is in denied range " + denied.get());
                return;
            }
            try {
                next.run(address);
            } catch (RuntimeException e) {
                probe.internalError(e);
            }
        }));
    }

    private static boolean busy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ResolverBusyException) {
                return true;
            }
        }
        return false;
    }

    void close() {
        resolver.close();
    }

    /** What to do with an allowed address. */
    @FunctionalInterface
    interface AddressTask {
        void run(InetAddress address);
    }
}
