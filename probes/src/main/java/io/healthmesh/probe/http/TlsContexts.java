package io.healthmesh.probe.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import javax.net.ssl.SSLException;

/**
 * The two client TLS contexts, built once per engine. Verification off (the default, as load balancers do
 * for their backends) trusts any certificate and checks no name; verification on uses the JDK's default
 * trust store and checks the certificate against the host (HTTPS endpoint identification).
 */
public final class TlsContexts {

    private final SslContext insecure;
    private final SslContext verifying;

    public TlsContexts() {
        try {
            this.insecure = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                    .trustManager(InsecureTrustManagerFactory.INSTANCE)
                    .endpointIdentificationAlgorithm(null)
                    .build();
            this.verifying = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build TLS client contexts: " + e.getMessage(), e);
        }
    }

    SslContext forVerification(boolean verify) {
        return verify ? verifying : insecure;
    }
}
