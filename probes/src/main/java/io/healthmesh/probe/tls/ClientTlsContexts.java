package io.healthmesh.probe.tls;

import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsSpec;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

import static java.util.Objects.requireNonNull;

/**
 * The client TLS contexts of one engine, one per combination a definition can ask for: verification on or off, the
 * trust bundle, the client key and the application protocol (none for HTTPS, {@code h2} by ALPN for GRPC). Verification
 * on checks the chain against the trust bundle (the JDK's default trust store without one) and the certificate
 * against the host (HTTPS endpoint identification, SNI = the host). A context is built the first time it is asked for
 * and then shared: a prober sees a handful of combinations, and the material is already in memory
 * ({@link TlsMaterial}).
 */
public final class ClientTlsContexts {

    /** What a context is built for. */
    private record Kind(boolean verify, String trustId, String clientKeyId, boolean h2) {
    }

    private static final ApplicationProtocolConfig H2 = new ApplicationProtocolConfig(
            ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
            ApplicationProtocolNames.HTTP_2);

    /** Trust bundles times client keys (each with "none") above which contexts are built when first asked for. */
    private static final int MAX_PREBUILT_COMBINATIONS = 64;

    private final TlsMaterial material;
    private final Map<Kind, SslContext> contexts = new ConcurrentHashMap<>();

    public ClientTlsContexts(TlsMaterial material) {
        this.material = requireNonNull(material, "material");
        // built now, off the event loops: a context costs milliseconds to build and a cold JVM far more, which the
        // first probe asking for it would otherwise pay inside its deadline
        List<String> trusts = new ArrayList<>();
        trusts.add(null);
        trusts.addAll(material.trustIds());
        List<String> keys = new ArrayList<>();
        keys.add(null);
        keys.addAll(material.clientKeyIds());
        if (trusts.size() * keys.size() <= MAX_PREBUILT_COMBINATIONS) {
            for (boolean h2 : new boolean[] {false, true}) {
                for (String key : keys) {
                    forKind(new Kind(false, null, key, h2));
                    for (String trust : trusts) {
                        forKind(new Kind(true, trust, key, h2));
                    }
                }
            }
        } else {
            forKind(new Kind(false, null, null, false));
            forKind(new Kind(true, null, null, false));
        }
    }

    /** Contexts without trust bundles or client keys. */
    public ClientTlsContexts() {
        this(TlsMaterial.NONE);
    }

    /**
     * The context for {@code target}'s TLS settings.
     *
     * @param h2 true to offer {@code h2} by ALPN (GRPC), false to offer nothing (HTTP/1.1)
     * @throws UnknownTlsIdException when the definition names a trust bundle or client key this prober does not hold
     */
    public SslContext forTarget(TargetSpec target, boolean h2) {
        TlsSpec tls = target.tls();
        if (tls.trustId() != null && material.trustBundle(tls.trustId()) == null) {
            throw new UnknownTlsIdException("tls.trustId", tls.trustId(), "tls.trust.bundles");
        }
        if (tls.clientKeyId() != null && material.clientKey(tls.clientKeyId()) == null) {
            throw new UnknownTlsIdException("tls.clientKeyId", tls.clientKeyId(), "tls.client.certificates");
        }
        boolean verify = target.verifiesTls();
        return forKind(new Kind(verify, verify ? tls.trustId() : null, tls.clientKeyId(), h2));
    }

    private SslContext forKind(Kind kind) {
        SslContext known = contexts.get(kind);
        return known != null ? known : contexts.computeIfAbsent(kind, this::build);
    }

    private SslContext build(Kind kind) {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
        if (kind.verify()) {
            builder.endpointIdentificationAlgorithm("HTTPS");
            if (kind.trustId() != null) {
                builder.trustManager(new ByteArrayInputStream(material.trustBundle(kind.trustId())));
            }
        } else {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        }
        if (kind.clientKeyId() != null) {
            TlsMaterial.ClientKey key = material.clientKey(kind.clientKeyId());
            builder.keyManager(new ByteArrayInputStream(key.certificateChain()),
                    new ByteArrayInputStream(key.privateKey()));
        }
        if (kind.h2()) {
            builder.applicationProtocolConfig(H2);
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build a TLS client context: " + e.getClass().getSimpleName(), e);
        }
    }

    /** A definition names a trust bundle or client key that the prober's settings do not declare. */
    public static final class UnknownTlsIdException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnknownTlsIdException(String field, String id, String setting) {
            super(field + " \"" + id + "\": not declared on this prober (setting " + setting + ")");
        }
    }
}
