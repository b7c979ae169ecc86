package io.healthmesh.xds;

import com.google.rpc.Status;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.xds.map.ClusterNames;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import io.healthmesh.xds.snapshot.SnapshotAssembler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static io.healthmesh.xds.Views.group;
import static io.healthmesh.xds.Views.member;
import static org.assertj.core.api.Assertions.assertThat;

/** The server over loopback with a raw ADS client (Envoy's API stubs): both protocols, gating, NACKs, the stream cap. */
class XdsServerTest {

    private static final Duration ANSWER = Duration.ofSeconds(10);
    /** How long "no answer" is watched for: a bounded wait, the server answers within milliseconds when it does. */
    private static final Duration SILENCE = Duration.ofMillis(500);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SnapshotAssembler assembler = new SnapshotAssembler(new EndpointMapping("zone"),
            new ProxyResources(5000), ClusterNames.identity());
    private XdsMetrics metrics;
    private XdsCallbacks callbacks;
    private XdsServer server;
    private ManagedChannel channel;

    @BeforeEach
    void start() {
        metrics = new XdsMetrics(registry, () -> callbacks.openStreams(), assembler::groups, assembler::endpoints,
                assembler::skipped);
        callbacks = new XdsCallbacks(2, metrics);
        server = XdsServer.start(XdsListener.loopback(), callbacks);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.close();
    }

    private void publish(List<GroupView> views, Set<String> changed) {
        server.publish(assembler.apply(FollowedState.of(views), changed));
    }

    private static DiscoveryRequest eds(String version, String nonce, String... names) {
        return DiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY).setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL)
                .addAllResourceNames(List.of(names)).setVersionInfo(version).setResponseNonce(nonce).build();
    }

    @Test
    void aClientIsAnsweredOnlyOnceTheFirstStateIsPublishedAndNeverWithAnEmptyList() throws Exception {
        try (AdsTestClient client = new AdsTestClient(channel, false)) {
            client.send(eds("", "", "web"));
            assertThat(client.sotw(SILENCE)).as("no answer before the state is read").isNull();

            publish(List.of(group("web", false, member(1, HEALTHY, true))), Set.of("web"));

            DiscoveryResponse first = client.sotw(ANSWER);
            assertThat(first).isNotNull();
            ClusterLoadAssignment cla = first.getResources(0).unpack(ClusterLoadAssignment.class);
            assertThat(cla.getEndpoints(0).getLbEndpointsCount()).isEqualTo(1);
        }
    }

    @Test
    void stateOfTheWorldAnswersAgainOnlyWhenAnAskedForGroupChanged() throws Exception {
        GroupView web = group("web", false, member(1, HEALTHY, true), member(2, HEALTHY, true));
        GroupView api = group("api", false, member(3, HEALTHY, true));
        publish(List.of(web, api), Set.of("web", "api"));
        try (AdsTestClient client = new AdsTestClient(channel, false)) {
            client.send(eds("", "", "web"));
            DiscoveryResponse first = client.sotw(ANSWER);
            client.send(eds(first.getVersionInfo(), first.getNonce(), "web")); // ACK

            publish(List.of(web, group("api", false, member(3, UNHEALTHY, false))), Set.of("api"));
            assertThat(client.sotw(SILENCE)).as("api changed, web did not").isNull();

            publish(List.of(group("web", false, member(1, HEALTHY, true), member(2, UNHEALTHY, false)), api),
                    Set.of("web"));
            DiscoveryResponse second = client.sotw(ANSWER);
            assertThat(second.getVersionInfo()).isNotEqualTo(first.getVersionInfo());
            assertThat(second.getResources(0).unpack(ClusterLoadAssignment.class).getEndpoints(0).getLbEndpoints(1)
                    .getHealthStatus()).isEqualTo(io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY);
        }
    }

    @Test
    void deltaSendsOnlyTheGroupThatChanged() throws Exception {
        GroupView web = group("web", false, member(1, HEALTHY, true));
        GroupView api = group("api", false, member(3, HEALTHY, true));
        publish(List.of(web, api), Set.of("web", "api"));
        try (AdsTestClient client = new AdsTestClient(channel, true)) {
            client.send(DeltaDiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                    .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addResourceNamesSubscribe("web")
                    .addResourceNamesSubscribe("api").build());
            DeltaDiscoveryResponse first = client.delta(ANSWER);
            assertThat(first.getResourcesList()).extracting(Resource::getName).containsExactlyInAnyOrder("web", "api");
            client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL)
                    .setResponseNonce(first.getNonce()).build()); // ACK

            publish(List.of(web, group("api", false, member(3, UNHEALTHY, true), member(4, HEALTHY, true))),
                    Set.of("api"));

            DeltaDiscoveryResponse second = client.delta(ANSWER);
            assertThat(second.getResourcesList()).extracting(Resource::getName).containsExactly("api");
            assertThat(second.getRemovedResourcesList()).isEmpty();
            client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL)
                    .setResponseNonce(second.getNonce()).build());

            publish(List.of(web), Set.of("api"));
            DeltaDiscoveryResponse third = client.delta(ANSWER);
            assertThat(third.getResourcesList()).isEmpty();
            assertThat(third.getRemovedResourcesList()).containsExactly("api");
        }
        assertThat(counter("healthmesh_xds_pushes", "delta")).isEqualTo(3);
    }

    @Test
    void aDeltaClientMovingToAnotherReplicaWithTheSameStateGetsTheSameVersions() throws Exception {
        List<GroupView> views = List.of(group("web", false, member(1, HEALTHY, true), member(2, UNHEALTHY, false)),
                group("api", false, member(3, HEALTHY, true)));
        publish(views, Set.of("web", "api"));
        java.util.Map<String, String> held = new java.util.HashMap<>();
        try (AdsTestClient client = new AdsTestClient(channel, true)) {
            client.send(DeltaDiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                    .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addResourceNamesSubscribe("web")
                    .addResourceNamesSubscribe("api").build());
            client.delta(ANSWER).getResourcesList().forEach(r -> held.put(r.getName(), r.getVersion()));
        }
        assertThat(held).containsOnlyKeys("web", "api");

        // a second replica that read the same state in another order
        SnapshotAssembler other = new SnapshotAssembler(new EndpointMapping("zone"), new ProxyResources(5000),
                ClusterNames.identity());
        XdsCallbacks otherCallbacks = new XdsCallbacks(10, metrics);
        try (XdsServer replica = XdsServer.start(XdsListener.loopback(), otherCallbacks)) {
            other.apply(FollowedState.of(List.of(views.get(1))), Set.of("api"));
            replica.publish(other.apply(FollowedState.of(views), Set.of("web")));
            ManagedChannel toReplica = NettyChannelBuilder.forAddress("127.0.0.1", replica.port()).usePlaintext().build();
            try (AdsTestClient moved = new AdsTestClient(toReplica, true)) {
                moved.send(DeltaDiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                        .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addResourceNamesSubscribe("web")
                        .addResourceNamesSubscribe("api").putAllInitialResourceVersions(held).build());
                // java-control-plane does not read initial_resource_versions: a new delta stream is sent its
                // subscribed resources again, with the versions the client already holds (nothing changes for it)
                DeltaDiscoveryResponse answer = moved.delta(ANSWER);
                java.util.Map<String, String> sent = new java.util.HashMap<>();
                answer.getResourcesList().forEach(r -> sent.put(r.getName(), r.getVersion()));
                assertThat(sent).isEqualTo(held);
                assertThat(answer.getRemovedResourcesList()).isEmpty();
            } finally {
                toReplica.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aNackIsCounted() throws Exception {
        publish(List.of(group("web", false, member(1, HEALTHY, true))), Set.of("web"));
        try (AdsTestClient client = new AdsTestClient(channel, false)) {
            client.send(eds("", "", "web"));
            DiscoveryResponse first = client.sotw(ANSWER);
            client.send(eds("", first.getNonce(), "web").toBuilder()
                    .setErrorDetail(Status.newBuilder().setCode(3).setMessage("rejected: test\nsecond line")).build());

            io.healthmesh.testkit.Await.until(ANSWER, () -> counter("healthmesh_xds_nacks", "sotw") == 1,
                    () -> "the NACK is counted");
        }
    }

    @Test
    void aStreamPastTheCapIsRefused() throws Exception {
        publish(List.of(group("web", false, member(1, HEALTHY, true))), Set.of("web"));
        // a stream is opened when its client is made: the third only once the first two are answered
        try (AdsTestClient one = new AdsTestClient(channel, false); AdsTestClient two = new AdsTestClient(channel, true)) {
            one.send(eds("", "", "web"));
            assertThat(one.sotw(ANSWER)).isNotNull();
            two.send(DeltaDiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                    .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addResourceNamesSubscribe("web").build());
            assertThat(two.delta(ANSWER)).isNotNull();
            try (AdsTestClient three = new AdsTestClient(channel, false)) {
                three.send(eds("", "", "web"));

                Throwable refused = three.errors.poll(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(refused).isInstanceOf(StatusRuntimeException.class);
                assertThat(((StatusRuntimeException) refused).getStatus().getCode())
                        .isEqualTo(io.grpc.Status.Code.RESOURCE_EXHAUSTED);
                assertThat(callbacks.openStreams()).isEqualTo(2);
            }
        }
    }

    private double counter(String name, String protocol) {
        return registry.scrape().stream().filter(s -> s.getMetadata().getName().equals(name))
                .map(CounterSnapshot.class::cast)
                .flatMap(s -> s.getDataPoints().stream())
                .filter(d -> protocol.equals(d.getLabels().get("protocol")))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }
}
