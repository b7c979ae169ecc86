package io.healthmesh.probe.tls;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.http.PeerCertificates;
import io.netty.handler.ssl.SslHandler;

/**
 * What every TLS probe does once its handshake succeeded, in one place for HTTPS and GRPC: records the certificate
 * facts on the probe (they go into its result and its {@link io.healthmesh.probe.CheckFacts}) and applies the definition's {@code minCertDaysLeft}.
 */
public final class HandshakeFacts {

    private HandshakeFacts() {
    }

    /**
     * Records the facts of {@code ssl}'s session on {@code probe}; ends the probe ({@code TLS_FAILURE}) when its chain
     * expires sooner than the definition allows.
     *
     * @return true when the probe goes on, false when it has ended here
     */
    public static boolean record(ProbeContext probe, SslHandler ssl) {
        if (probe.tracing()) {
            probe.fact("certificate", PeerCertificates.summary(ssl));
        }
        CertificateFacts facts = CertificateFacts.of(ssl.engine().getSession());
        if (facts == null) {
            return true;
        }
        long nowMs = System.currentTimeMillis();
        probe.certificates(facts.leafNotAfterMs(), facts.chainNotAfterMs());
        probe.facts().tlsDaysLeft(facts.daysLeft(nowMs));
        String tooSoon = facts.belowMinimum(probe.target().tls().minCertDaysLeft(), nowMs);
        if (tooSoon != null) {
            probe.finish(Outcome.TLS_FAILURE, tooSoon);
            return false;
        }
        return true;
    }
}
