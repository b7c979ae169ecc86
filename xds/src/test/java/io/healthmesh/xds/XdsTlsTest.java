package io.healthmesh.xds;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.healthmesh.testkit.TestCertificates;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.xds.map.ClusterNames;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import io.healthmesh.xds.snapshot.SnapshotAssembler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.xds.Views.group;
import static io.healthmesh.xds.Views.member;
import static org.assertj.core.api.Assertions.assertThat;

/** The xDS listener with TLS: a key store or PEM identity, and client certificates required when a CA is given. */
class XdsTlsTest {

    private static final Duration ANSWER = Duration.ofSeconds(10);

    private static XdsServer serve(XdsTls tls) {
        SnapshotAssembler assembler = new SnapshotAssembler(new EndpointMapping("zone"), new ProxyResources(5000),
                ClusterNames.identity());
        XdsCallbacks[] callbacks = new XdsCallbacks[1];
        XdsMetrics metrics = new XdsMetrics(new PrometheusRegistry(), () -> callbacks[0].openStreams(),
                assembler::groups, assembler::endpoints, assembler::skipped);
        callbacks[0] = new XdsCallbacks(10, metrics);
        XdsServer server = XdsServer.start(XdsListener.loopback().withTls(tls), callbacks[0]);
        server.publish(assembler.apply(FollowedState.of(List.of(group("web", false, member(1, HEALTHY, true)))),
                Set.of("web")));
        return server;
    }

    /** True when an EDS request over {@code credentials} is answered. */
    private static boolean answered(XdsServer server, ChannelCredentials credentials) throws InterruptedException {
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", server.port(), credentials).build();
        try (AdsTestClient client = new AdsTestClient(channel, false)) {
            client.send(DiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                    .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addResourceNames("web").build());
            long deadline = System.nanoTime() + ANSWER.toNanos();
            while (System.nanoTime() < deadline) {
                if (client.sotw(Duration.ofMillis(50)) != null) {
                    return true;
                }
                Throwable error = client.errors.poll();
                if (error != null) {
                    assertThat(error).isInstanceOf(StatusRuntimeException.class);
                    return false;
                }
            }
            throw new AssertionError("neither an answer nor an error within " + ANSWER);
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKeyStoreIdentityServesTls(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        try (XdsServer server = serve(new XdsTls(null, null, null, certs.keyStore(), certs.password(), "PKCS12", null))) {
            assertThat(answered(server, TlsChannelCredentials.newBuilder()
                    .trustManager(certs.certificatePem().toFile()).build())).isTrue();
        }
    }

    @Test
    void withAClientCaOnlyClientsWithACertificateAreAnswered(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        // the test identity is self-signed: it is its own authority, for the server and for the client
        XdsTls tls = new XdsTls(certs.certificatePem(), certs.privateKeyPem(), null, null, null, "PKCS12",
                certs.certificatePem());
        try (XdsServer server = serve(tls)) {
            assertThat(answered(server, TlsChannelCredentials.newBuilder()
                    .keyManager(certs.certificatePem().toFile(), certs.privateKeyPem().toFile())
                    .trustManager(certs.certificatePem().toFile()).build())).as("with a certificate").isTrue();
            assertThat(answered(server, TlsChannelCredentials.newBuilder()
                    .trustManager(certs.certificatePem().toFile()).build())).as("without one").isFalse();
        }
    }

    @Test
    void anUnreadableIdentityIsAClearError(@TempDir Path dir) throws IOException {
        XdsTls tls = new XdsTls(dir.resolve("missing.pem"), dir.resolve("missing.key"), null, null, null, "PKCS12", null);
        org.assertj.core.api.Assertions.assertThatThrownBy(tls::credentials)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("xds TLS: cannot use")
                .hasMessageContaining("missing.pem");
    }
}
