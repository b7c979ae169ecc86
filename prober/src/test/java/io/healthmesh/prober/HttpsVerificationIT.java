package io.healthmesh.prober;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.healthmesh.contract.target.TargetFileReader;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTPS verification as a prober runs it, end to end on loopback: definitions read from YAML as {@code targets apply}
 * reads them, the trust bundle named by the prober's {@code tls.trust.bundles} setting, the prober's engine, and a
 * JDK HTTPS server with a self-signed certificate for {@value #HOST} that records the SNI names it receives.
 * A definition that says nothing about TLS is verified and fails; a trust bundle or {@code insecureSkipVerify}
 * makes it pass; a record of the old default keeps its old verdict.
 */
class HttpsVerificationIT {

    private static final int TIMEOUT_MS = 5_000;
    /** The certificate's name: with a dot, as the JDK sends no SNI for a single label such as localhost. */
    private static final String HOST = "web.healthmesh.test";

    private static NettyProbeEngine engine;
    private static HttpsServer server;
    private static final List<String> sniNames = new CopyOnWriteArrayList<>();
    private static final List<String> hostHeaders = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        TestCertificates certificate = TestCertificates.create(dir, "server", 30, HOST);
        ProberConfig config = ProberConfig.from(Map.of("bootstrap.servers", "localhost:9092",
                "schema.registry.url", "mem://https-verification",
                "tls.trust.bundles", "test-ca=" + certificate.certificatePem()));
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK)
                .withEventLoopThreads(1), null, ProbeSource.NONE, config.tls().material());
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        SSLContext tls = serverContext(certificate);
        server.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = tls.getDefaultSSLParameters();
                parameters.setSNIMatchers(List.of(new RecordingSniMatcher()));
                params.setSSLParameters(parameters);
            }
        });
        server.createContext("/", exchange -> {
            hostHeaders.add(exchange.getRequestHeaders().getFirst("Host"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (engine != null) {
            engine.close();
        }
    }

    @BeforeEach
    void forget() {
        sniNames.clear();
        hostHeaders.clear();
    }

    private static TargetSpec definition(String http, String tls) {
        String yaml = "- {id: web-1, address: 127.0.0.1, port: " + server.getAddress().getPort() + ", protocol: HTTPS,"
                + " timeoutMs: " + TIMEOUT_MS + ", http: " + http + (tls == null ? "" : ", tls: " + tls) + "}\n";
        TargetFileReader.Batch batch = TargetFileReader.readText("it.yaml", yaml, false);
        assertThat(batch.errors()).isEmpty();
        return batch.specs().get(0);
    }

    private static ProbeReport probe(TargetSpec target) throws Exception {
        return engine.probe(target).get(target.timeoutMs() + 10_000L, TimeUnit.MILLISECONDS);
    }

    @Test
    void byDefaultASelfSignedCertificateFailsAsNotTrusted() throws Exception {
        TargetSpec target = definition("{host: " + HOST + "}", null);
        assertThat(target.tlsVerification()).isEqualTo(TlsVerification.VERIFIED);

        ProbeReport report = probe(target);

        assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(report.detail()).isEqualTo("TLS: certificate not trusted (no path to a trusted issuer)");
        assertThat(sniNames).containsExactly(HOST);
        assertThat(hostHeaders).as("no request over an unverified connection").isEmpty();
    }

    @Test
    void theProbersTrustBundleNamedByTrustIdVerifiesItWithSniAndHostEqualToTheHost() throws Exception {
        ProbeReport report = probe(definition("{host: " + HOST + "}", "{trustId: test-ca}"));

        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.certNotAfterMs()).isNotNull();
        assertThat(sniNames).containsExactly(HOST);
        assertThat(hostHeaders).containsExactly(HOST + ":" + server.getAddress().getPort());
    }

    @Test
    void aTrustedCertificateForAnotherNameFailsAsANameMismatch() throws Exception {
        ProbeReport report = probe(definition("{host: shop.example.test}", "{trustId: test-ca}"));

        assertThat(report.outcome()).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(report.detail()).isEqualTo("TLS: certificate does not match the host name");
        assertThat(sniNames).containsExactly("shop.example.test");
    }

    @Test
    void insecureSkipVerifyAcceptsTheSelfSignedCertificate() throws Exception {
        TargetSpec target = definition("{host: shop.example.test}", "{insecureSkipVerify: true}");
        assertThat(target.tlsVerification()).isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);

        ProbeReport report = probe(target);

        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
        assertThat(sniNames).containsExactly("shop.example.test");
    }

    @Test
    void aStoredRecordOfTheOldDefaultKeepsItsVerdict() throws Exception {
        // what a writer before the change stored: tlsVerify false and no tls section
        TargetDefinition old = TargetDefinition.newBuilder().setId("web-old").setAddress("127.0.0.1")
                .setPort(server.getAddress().getPort()).setProtocol(Protocol.HTTPS).setTimeoutMs(TIMEOUT_MS)
                .setHttp(HttpCheck.newBuilder().setHost(HOST).build()).build();
        TargetSpec target = TargetSpecs.fromAvro(old);
        assertThat(target.tlsVerification()).isEqualTo(TlsVerification.OFF_BY_OLD_DEFAULT);

        ProbeReport report = probe(target);

        assertThat(report.outcome()).as(report.detail()).isEqualTo(Outcome.SUCCESS);
    }

    private static SSLContext serverContext(TestCertificates certificate) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificate.keyStore())) {
            store.load(in, certificate.password().toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, certificate.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** Accepts every SNI name and records it. */
    private static final class RecordingSniMatcher extends SNIMatcher {
        RecordingSniMatcher() {
            super(0);
        }

        @Override
        public boolean matches(SNIServerName name) {
            sniNames.add(((SNIHostName) name).getAsciiName());
            return true;
        }
    }
}
