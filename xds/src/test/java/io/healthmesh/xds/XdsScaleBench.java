package io.healthmesh.xds;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;
import io.healthmesh.xds.map.ClusterNames;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import io.healthmesh.xds.snapshot.SnapshotAssembler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The xds server at scale, without Kafka (the follower is measured on its own): {@code groups} groups of
 * {@code members} endpoints, {@code clients} delta ADS streams spread over a few loopback channels, each subscribed
 * to the endpoints of a shared group {@code g0} and of {@code perClient - 1} others. Prints the heap per endpoint
 * held by the served state, the time to turn a one-group change into new snapshots, and the time from that change to
 * its arrival at every subscribed client. Bounded: every wait has a deadline, the rounds are counted.
 * <p>
 * Run (arguments: groups, members per group, clients, groups per client, rounds):
 * <pre>
 * mvn -B -o -pl testkit,follow,xds test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=/tmp/xds-cp.txt
 * java -Xmx3g -cp xds/target/test-classes:xds/target/classes:$(cat /tmp/xds-cp.txt) \
 *     io.healthmesh.xds.XdsScaleBench 10000 10 1000 10 20
 * </pre>
 */
public final class XdsScaleBench {

    private XdsScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int groups = arg(args, 0, 10_000);
        int members = arg(args, 1, 10);
        int clients = arg(args, 2, 1_000);
        int perClient = arg(args, 3, 10);
        int rounds = arg(args, 4, 50);
        int channels = Math.max(1, clients / 250);

        long heapBefore = usedHeap();
        List<GroupView> views = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            views.add(view(g, members, -1));
        }
        FollowedState state = FollowedState.of(views);
        SnapshotAssembler assembler = new SnapshotAssembler(new EndpointMapping("zone"), new ProxyResources(5000),
                ClusterNames.identity());
        Set<String> all = new HashSet<>(state.groups().keySet());
        long t0 = System.nanoTime();
        SnapshotAssembler.Snapshots first = assembler.apply(state, all);
        long built = System.nanoTime() - t0;
        PrometheusRegistry registry = new PrometheusRegistry();
        XdsCallbacks[] callbacks = new XdsCallbacks[1];
        XdsMetrics metrics = new XdsMetrics(registry, () -> callbacks[0].openStreams(), assembler::groups,
                assembler::endpoints, assembler::skipped);
        callbacks[0] = new XdsCallbacks(clients + 10, metrics);
        XdsServer server = XdsServer.start(XdsListener.loopback().withStreams(clients + 10, clients), callbacks[0]);
        server.publish(first);
        long heapServed = usedHeap();
        long endpoints = (long) groups * members;
        System.out.printf("state: %d groups, %d endpoints; first snapshot built in %d ms%n", groups, endpoints,
                built / 1_000_000);
        System.out.printf("heap held (follower views + assembler + cache): %.1f MiB, %.0f bytes per endpoint%n",
                (heapServed - heapBefore) / 1048576.0, (heapServed - heapBefore) / (double) endpoints);

        List<ManagedChannel> open = new ArrayList<>();
        for (int c = 0; c < channels; c++) {
            open.add(NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
                    .maxInboundMessageSize(64 * 1024 * 1024).build());
        }
        Random random = new Random(7);
        CountDownLatch subscribed = new CountDownLatch(clients);
        Map<Integer, Long> lastG0 = new ConcurrentHashMap<>();
        CountDownLatch[] round = {new CountDownLatch(0)};
        long[] received = new long[clients];
        long[] bytes = {0};
        boolean[] closing = {false};
        long connectStart = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            int client = i;
            List<String> names = new ArrayList<>(List.of("g0"));
            while (names.size() < perClient) {
                String n = "g" + (1 + random.nextInt(groups - 1));
                if (!names.contains(n)) {
                    names.add(n);
                }
            }
            StreamObserver<DeltaDiscoveryRequest>[] requests = new StreamObserver[1];
            boolean[] first1 = {true};
            requests[0] = AggregatedDiscoveryServiceGrpc.newStub(open.get(i % channels)).deltaAggregatedResources(
                    new StreamObserver<>() {
                        @Override
                        public void onNext(DeltaDiscoveryResponse r) {
                            synchronized (requests) {
                                requests[0].onNext(DeltaDiscoveryRequest.newBuilder()
                                        .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).setResponseNonce(r.getNonce()).build());
                            }
                            synchronized (bytes) {
                                bytes[0] += r.getSerializedSize();
                            }
                            if (first1[0]) {
                                first1[0] = false;
                                subscribed.countDown();
                                return;
                            }
                            for (Resource res : r.getResourcesList()) {
                                if (res.getName().equals("g0")) {
                                    received[client] = System.nanoTime();
                                    round[0].countDown();
                                }
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            if (!closing[0]) {
                                System.err.println("client " + client + ": " + t);
                            }
                        }

                        @Override
                        public void onCompleted() {
                        }
                    });
            synchronized (requests) {
                requests[0].onNext(DeltaDiscoveryRequest.newBuilder().setNode(AdsTestClient.ENVOY)
                        .setTypeUrl(Resources.V3.ENDPOINT_TYPE_URL).addAllResourceNamesSubscribe(names).build());
            }
        }
        if (!subscribed.await(300, TimeUnit.SECONDS)) {
            throw new IllegalStateException("clients not all answered: " + subscribed.getCount() + " left");
        }
        System.out.printf("%d delta streams on %d channels subscribed (%d groups each) in %d ms, %.1f MiB sent%n",
                clients, channels, perClient, (System.nanoTime() - connectStart) / 1_000_000, bytes[0] / 1048576.0);
        System.out.printf("heap with the streams open: %.1f MiB more%n", (usedHeap() - heapServed) / 1048576.0);

        long[] applyNanos = new long[rounds];
        long[] assembleNanos = new long[rounds];
        long[] cpuNanos = new long[rounds];
        var threads = ManagementFactory.getThreadMXBean();
        long[] lastClient = new long[rounds];
        long[] medianClient = new long[rounds];
        long bytesBefore = bytes[0];
        for (int r = 0; r < rounds; r++) {
            GroupView changed = view(0, members, r % members);
            List<GroupView> next = new ArrayList<>(views);
            next.set(0, changed);
            FollowedState nextState = FollowedState.of(next);
            round[0] = new CountDownLatch(clients);
            Arrays.fill(received, 0);
            long start = System.nanoTime();
            long cpuStart = threads.getCurrentThreadCpuTime();
            SnapshotAssembler.Snapshots s = assembler.apply(nextState, Set.of("g0"));
            assembleNanos[r] = System.nanoTime() - start;
            server.publish(s);
            applyNanos[r] = System.nanoTime() - start;
            cpuNanos[r] = threads.getCurrentThreadCpuTime() - cpuStart;
            if (!round[0].await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("round " + r + ": " + round[0].getCount() + " clients not told");
            }
            long[] lat = Arrays.stream(received).map(at -> at - start).sorted().toArray();
            lastClient[r] = lat[lat.length - 1];
            medianClient[r] = lat[lat.length / 2];
        }
        System.out.printf("of which the snapshots alone: p50 %.1f ms p99 %.1f ms%n", pct(assembleNanos, 50),
                pct(assembleNanos, 99));
        System.out.printf("one group changed, %d rounds: snapshot+publish p50 %.1f ms p99 %.1f ms; change -> median "
                        + "client p50 %.1f ms; change -> last of %d clients p50 %.1f ms p99 %.1f ms; %.1f KiB sent per round%n",
                rounds, pct(applyNanos, 50), pct(applyNanos, 99), pct(medianClient, 50), clients, pct(lastClient, 50),
                pct(lastClient, 99), (bytes[0] - bytesBefore) / 1024.0 / rounds);
        System.out.printf("CPU time of snapshot+publish on the publishing thread: p50 %.1f ms p99 %.1f ms%n",
                pct(cpuNanos, 50), pct(cpuNanos, 99));
        System.out.printf("JVM: %s, max heap %d MiB, %d cores, load average %.1f%n", System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() / 1048576, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        closing[0] = true;
        for (ManagedChannel ch : open) {
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        server.close();
        System.exit(0);
    }

    private static GroupView view(int g, int members, int down) {
        List<Member> list = new ArrayList<>(members);
        for (int m = 0; m < members; m++) {
            int n = g * members + m;
            String address = "10." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255);
            boolean healthy = m != down;
            list.add(new Member("g" + g + "-m" + m, address, 8080, 10, "eu-west",
                    Map.of("zone", "eu-west-" + (m % 3)), healthy ? HealthStatus.HEALTHY : HealthStatus.UNHEALTHY,
                    healthy));
        }
        return GroupView.of("g" + g, false, list, false);
    }

    private static double pct(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int i = Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1);
        return sorted[Math.max(0, i)] / 1e6;
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }

    private static int arg(String[] args, int i, int fallback) {
        return args.length > i ? Integer.parseInt(args[i]) : fallback;
    }
}
