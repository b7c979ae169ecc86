package io.healthmesh.probe.egress;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.probe.FailureClassifier;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.resolve.HostResolver;
import io.healthmesh.probe.resolve.ResolverBusyException;

import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Resolution plus egress policy: the only way a probe gets an address to send to. The host as written is checked
 * first (for an address literal that is the whole check: it is the address connected to); a name is then resolved
 * off the event loop and the resolved address (and port) is checked against the {@link EgressPolicy}, so that no
 * packet leaves for a denied
 * destination ({@code BLOCKED_BY_POLICY}); a name that does not resolve ends the probe with {@code DNS_FAILURE}, a
 * resolver too busy to try ({@link ResolverBusyException}) with {@code INCONCLUSIVE}.
 * Used for the target and again for every HTTP redirect hop to another host.
 */
public final class AddressGate {

    private final HostResolver resolver;
    private final EgressPolicy policy;

    AddressGate(HostResolver resolver, EgressPolicy policy) {
        this.resolver = requireNonNull(resolver, "resolver");
        this.policy = requireNonNull(policy, "policy");
    }

    /** The engine's gate: {@code resolver} and the egress policy of {@code config}'s lists (it closes the resolver). */
    public static AddressGate of(HostResolver resolver, ProbeEngineConfig config) {
        return new AddressGate(resolver, new EgressPolicy(config.denyList(), config.allowList(),
                EgressPolicy.resolve(config.deniedEndpoints())));
    }

    /** The endpoints learnt while running that this gate denies; the prober replaces them periodically. */
    public DiscoveredEndpoints discovered() {
        return policy.discovered();
    }

    /** {@link #resolveAllowed(ProbeContext, String, int, AddressTask)} for the target's own host and port. */
    public void resolveAllowed(ProbeContext probe, String host, AddressTask next) {
        int port = probe.target().protocol() == Protocol.ICMP ? -1 : probe.target().port();
        resolveAllowed(probe, host, port, next);
    }

    /**
     * Checks {@code host} as written, resolves it, checks the address; when both are allowed, runs {@code next}
     * with the address on the probe's loop.
     */
    public void resolveAllowed(ProbeContext probe, String host, int port, AddressTask next) {
        // a numeric spelling is the address the policy judged (inet_aton's reading), whatever a resolver makes of it
        InetAddress literal;
        try {
            literal = AddressForms.literal(host).orElse(null);
        } catch (RuntimeException e) {
            probe.internalError(e);
            return;
        }
        Optional<String> early = policy.checkHost(host, literal, port);
        if (early.isPresent()) {
            probe.finish(Outcome.BLOCKED_BY_POLICY, early.get());
            return;
        }
        if (literal != null) {
            // checked above, address and port: nothing to look up, nothing to check again
            probe.execute(() -> proceed(probe, literal, next));
            return;
        }
        probe.phase("resolving " + host);
        CompletableFuture<InetAddress> resolution;
        try {
            resolution = resolver.resolve(host);
        } catch (RuntimeException e) {
            resolution = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<InetAddress> lookup = resolution;
        probe.whenEnded(() -> lookup.cancel(false)); // the deadline ends the lookup too
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
            if (probe.tracing()) {
                probe.step("resolved " + host + " to " + address.getHostAddress());
            }
            if (allowed(probe, address, port)) {
                proceed(probe, address, next);
            }
        }));
    }

    private static void proceed(ProbeContext probe, InetAddress address, AddressTask next) {
        try {
            next.run(address);
        } catch (RuntimeException e) {
            probe.internalError(e);
        }
    }

    private static boolean busy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ResolverBusyException) {
                return true;
            }
        }
        return false;
    }

    /** True when the policy allows {@code address:port}; otherwise ends the probe with {@code BLOCKED_BY_POLICY}. */
    public boolean allowed(ProbeContext probe, InetAddress address, int port) {
        Optional<String> denied = policy.check(address, port);
        denied.ifPresent(reason -> probe.finish(Outcome.BLOCKED_BY_POLICY, reason));
        return denied.isEmpty();
    }

    /** Closes the resolver. */
    public void close() {
        resolver.close();
    }

    /** What to do with an allowed address. */
    @FunctionalInterface
    public interface AddressTask {
        void run(InetAddress address);
    }
}
