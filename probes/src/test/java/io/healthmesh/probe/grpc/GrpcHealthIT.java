package io.healthmesh.probe.grpc;

import com.sun.net.httpserver.HttpServer;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.GrpcSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.Targets;
import io.healthmesh.probe.Unstalled;
import io.healthmesh.probe.tls.TlsMaterial;
import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GRPC probe against grpc-java's own health service ({@code HealthStatusManager}) on loopback, plaintext and TLS
 * (verified, skipped, mutual), and against servers that are not gRPC: a silent one and an HTTP/1-only one.
 */
class GrpcHealthIT {

    private static final int SILENT_TIMEOUT_MS = 800;

    private static TestCertificates serverCert;
    private static TestCertificates clientCert;
    private static NettyProbeEngine engine;
    private static HealthStatusManager health;
    private static Server plain;
    private static Server tls;
    private static Server mutual;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        serverCert = TestCertificates.create(dir, "server", 2);
        clientCert = TestCertificates.create(dir, "client", 30);
        TlsMaterial material = TlsMaterial.load(Map.of("test-ca", serverCert.certificatePem()),
                Map.of("probe", clientCert.certificatePem()), Map.of("probe", clientCert.privateKeyPem()));
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null, ProbeSource.NONE, material);
        health = new HealthStatusManager();
        health.setStatus("svc.up", ServingStatus.SERVING);
        health.setStatus("svc.down", ServingStatus.NOT_SERVING);
        plain = serve(InsecureServerCredentials.create());
        tls = serve(TlsServerCredentials.create(serverCert.certificatePem().toFile(),
                serverCert.privateKeyPem().toFile()));
        mutual = serve(TlsServerCredentials.newBuilder()
                .keyManager(serverCert.certificatePem().toFile(), serverCert.privateKeyPem().toFile())
                .trustManager(clientCert.certificatePem().toFile())
                .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE).build());
    }

    private static Server serve(ServerCredentials credentials) throws Exception {
        return NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), credentials)
                .addService(health.getHealthService()).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        for (Server server : new Server[] {plain, tls, mutual}) {
            if (server != null) {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        if (engine != null) {
            engine.close();
        }
    }

    private static ProbeReport run(TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + Targets.DEADLINE_SLACK_MS, TimeUnit.MILLISECONDS);
    }

    private static TargetSpec grpc(int port, String service) {
        return Targets.target(Protocol.GRPC, "127.0.0.1", port, Targets.GENEROUS_MS)
                .withGrpc(new GrpcSpec(service, false));
    }

    private static TargetSpec grpcTls(int port, TlsSpec settings) {
        return Targets.target(Protocol.GRPC, "127.0.0.1", port, Targets.GENEROUS_MS)
                .withGrpc(new GrpcSpec("svc.up", true)).withTls(settings);
    }

    @Test
    void theWholeServerServing() throws Exception {
        ProbeReport report = run(grpc(plain.getPort(), ""));
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("SERVING");
        assertThat(report.httpStatus()).isEqualTo(200);
        assertThat(report.connectMicros()).isNotNull();
        assertThat(report.tlsMicros()).isNull();
        assertThat(report.certNotAfterMs()).isNull();
    }

    @Test
    void aConditionReadsTheServingStatus() throws Exception {
        assertThat(run(grpc(plain.getPort(), "").withCondition("grpc.status == 'SERVING' && !has(tls.daysLeft)"))
                .outcome()).isEqualTo(Outcome.SUCCESS);
        ProbeReport report = run(grpc(plain.getPort(), "svc.up").withCondition("grpc.status != 'SERVING'"));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("condition false");
    }

    @Test
    void aServiceServing() throws Exception {
        assertThat(run(grpc(plain.getPort(), "svc.up")).outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aServiceNotServing() throws Exception {
        ProbeReport report = run(grpc(plain.getPort(), "svc.down"));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("NOT_SERVING");
    }

    @Test
    void anUnknownService() throws Exception {
        ProbeReport report = run(grpc(plain.getPort(), "no.such.Service"));
        assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
        assertThat(report.detail()).isEqualTo("grpc-status 5 NOT_FOUND (the server does not know the service)");
    }

    @Test
    void aServerThatNeverAnswersTimesOutInTheCall() throws Exception {
        try (ScriptedServer silent = ScriptedServer.raw((s, head, srv) -> srv.awaitClose(10_000))) {
            TargetSpec target = Targets.target(Protocol.GRPC, "127.0.0.1", silent.port(), SILENT_TIMEOUT_MS);
            ProbeReport report = Unstalled.check(() -> run(target));
            assertThat(report.outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(report.detail()).contains("awaiting grpc-status");
        }
    }

    @Test
    void anHttp1OnlyServerIsNotAGrpcServer() throws Exception {
        HttpServer http1 = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http1.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        http1.start();
        try {
            ProbeReport report = run(grpc(http1.getAddress().getPort(), ""));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).isEqualTo(GrpcCallHandler.NOT_HTTP2);
        } finally {
            http1.stop(0);
        }
    }

    @Test
    void tlsVerifiedAgainstTheProbersTrustBundle() throws Exception {
        long before = System.currentTimeMillis();
        ProbeReport report = run(grpcTls(tls.getPort(), new TlsSpec(false, "test-ca", null, 0)));
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.tlsMicros()).isNotNull();
        // keytool's two days of validity, counted from when the certificate was made
        assertThat(report.certNotAfterMs()).isBetween(before + TimeUnit.DAYS.toMillis(2) - TimeUnit.MINUTES.toMillis(10),
                before + TimeUnit.DAYS.toMillis(2) + TimeUnit.MINUTES.toMillis(1));
        assertThat(report.chainNotAfterMs()).isEqualTo(report.certNotAfterMs());
    }

    @Test
    void tlsVerificationIsOnByDefault() throws Exception {
        ProbeReport report = run(grpcTls(tls.getPort(), TlsSpec.DEFAULTS));
        assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(report.detail()).isEqualTo("TLS: certificate not trusted (no path to a trusted issuer)");
    }

    @Test
    void insecureSkipVerifyAcceptsTheSelfSignedCertificate() throws Exception {
        ProbeReport report = run(grpcTls(tls.getPort(), new TlsSpec(true, null, null, 0)));
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.certNotAfterMs()).isNotNull();
    }

    @Test
    void aServerThatRequiresAClientCertificate() throws Exception {
        ProbeReport without = run(grpcTls(mutual.getPort(), new TlsSpec(false, "test-ca", null, 0)));
        // TLS 1.3 refuses a missing client certificate after the client's handshake is done: the refusal arrives as
        // the server's alert or, when the probe has written first, as the reset of the connection it closed
        assertThat(without.outcome()).isIn(Outcome.TLS_FAILURE, Outcome.CONNECTION_RESET);
        ProbeReport with = run(grpcTls(mutual.getPort(), new TlsSpec(false, "test-ca", "probe", 0)));
        assertThat(with.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aClientKeyIdTheProberDoesNotHoldIsAClearError() throws Exception {
        ProbeReport report = run(grpcTls(mutual.getPort(), new TlsSpec(false, "test-ca", "nope", 0)));
        assertThat(report.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(report.detail()).isEqualTo("tls.clientKeyId \"nope\": not declared on this prober"
                + " (setting tls.client.certificates)");
    }

    @Test
    void aCertificateThatExpiresTooSoonFailsTheCheck() throws Exception {
        ProbeReport report = run(grpcTls(tls.getPort(), new TlsSpec(false, "test-ca", null, 30)));
        assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(report.detail()).isEqualTo("TLS: the certificate expires in 1 days (minCertDaysLeft 30)");
        assertThat(report.certNotAfterMs()).isNotNull();
        assertThat(run(grpcTls(tls.getPort(), new TlsSpec(false, "test-ca", null, 1))).outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aTlsServerWithoutHttp2IsNotAGrpcServer() throws Exception {
        try (ScriptedServer h1 = ScriptedServer.https(serverContext(serverCert), (s, head, srv) ->
                srv.write(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))) {
            ProbeReport report = run(grpcTls(h1.port(), new TlsSpec(true, null, null, 0)));
            assertThat(report.outcome()).isEqualTo(Outcome.UNEXPECTED_RESPONSE);
            assertThat(report.detail()).contains("no h2 by ALPN");
        }
    }

    /** A JDK TLS server context of {@code identity}: no ALPN, so no h2. */
    private static SSLContext serverContext(TestCertificates identity) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(identity.keyStore())) {
            store.load(in, identity.password().toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, identity.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    @Test
    void theEgressPolicyHoldsForGrpc() throws Exception {
        try (NettyProbeEngine strict = NettyProbeEngine.create(ProbeEngineConfig.defaults().withEventLoopThreads(1),
                null)) {
            ProbeReport report = strict.probe(grpc(plain.getPort(), "")).get(Targets.GENEROUS_MS, TimeUnit.MILLISECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        }
    }
}
