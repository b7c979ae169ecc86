package io.healthmesh.prober;

import io.healthmesh.contract.endpoints.AnnouncedEndpoint;
import io.healthmesh.contract.endpoints.Announcement;
import io.healthmesh.contract.endpoints.Announcements;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** What the announcements add to a prober's denied set: per worker, latest wins, bounded, aged, never a lookup. */
class AnnouncedEndpointsTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void theLatestAnnouncementOfEachWorkerIsDeniedUntilItsTombstone() throws Exception {
        AnnouncedEndpoints announced = new AnnouncedEndpoints();
        announced.apply("aggregator@a:8080", announcement(NOW, "10.0.0.5", 8080, "10.0.0.5", 9100));
        announced.apply("xds@b:18000", announcement(NOW, "aggregator-1.Example", 18000));
        AnnouncedEndpoints.Denials denials = announced.denials(NOW);
        assertThat(denials.addresses()).isEqualTo(Map.of(InetAddress.getByName("10.0.0.5"), Set.of(8080, 9100)));
        assertThat(denials.names()).isEqualTo(Map.of("aggregator-1.example", Set.of(18000)));
        announced.apply("aggregator@a:8080", announcement(NOW, "10.0.0.6", 8080));
        assertThat(announced.denials(NOW).addresses()).isEqualTo(Map.of(InetAddress.getByName("10.0.0.6"), Set.of(8080)));
        announced.apply("aggregator@a:8080", null);
        assertThat(announced.denials(NOW).addresses()).isEmpty();
        assertThat(announced.workers()).isEqualTo(1);
    }

    @Test
    void anAnnouncementNotRefreshedForTheMaximumAgeIsNoLongerDenied() {
        AnnouncedEndpoints announced = new AnnouncedEndpoints();
        announced.apply("w", announcement(NOW, "10.0.0.5", 8080));
        long limit = NOW + Announcements.MAX_AGE.toMillis();
        assertThat(announced.denials(limit).denied()).isEqualTo(1);
        assertThat(announced.denials(limit + 1).denied()).isZero();
        assertThat(announced.denials(limit + 1).expired()).isEqualTo(1);
    }

    @Test
    void theFirstEndpointsUpToTheBoundAreDeniedAndTheRestCounted() {
        AnnouncedEndpoints announced = new AnnouncedEndpoints();
        int workers = AnnouncedEndpoints.MAX_ENDPOINTS / Announcements.MAX_ENDPOINTS + 1;
        for (int w = 0; w < workers; w++) {
            int worker = w;
            List<AnnouncedEndpoint> endpoints = IntStream.range(0, Announcements.MAX_ENDPOINTS)
                    .mapToObj(i -> new AnnouncedEndpoint("http", "10.1." + worker + "." + i, 80)).toList();
            announced.apply("worker-" + w, new Announcement("status", NOW, endpoints));
        }
        AnnouncedEndpoints.Denials denials = announced.denials(NOW);
        assertThat(denials.denied()).isEqualTo(AnnouncedEndpoints.MAX_ENDPOINTS);
        assertThat(denials.dropped()).isEqualTo(Announcements.MAX_ENDPOINTS);
        assertThat(denials.addresses()).containsKey(address("10.1.0.0")).doesNotContainKey(address("10.1." + (workers - 1) + ".0"));
    }

    @Test
    void workersBeyondTheBoundAreNotKeptButKnownOnesStillUpdate() {
        AnnouncedEndpoints announced = new AnnouncedEndpoints();
        for (int w = 0; w < AnnouncedEndpoints.MAX_WORKERS; w++) {
            assertThat(announced.apply("worker-" + w, announcement(NOW, "10.2.0.1", 1 + w))).isTrue();
        }
        assertThat(announced.apply("one-too-many", announcement(NOW, "10.2.0.2", 80))).isFalse();
        assertThat(announced.workersRefused()).isEqualTo(1);
        assertThat(announced.apply("worker-0", announcement(NOW, "10.2.0.3", 80))).isTrue();
        assertThat(announced.denials(NOW).addresses()).containsKey(address("10.2.0.3"))
                .doesNotContainKey(address("10.2.0.2"));
    }

    private static Announcement announcement(long atMs, Object... hostPorts) {
        List<AnnouncedEndpoint> endpoints = new java.util.ArrayList<>();
        for (int i = 0; i < hostPorts.length; i += 2) {
            endpoints.add(new AnnouncedEndpoint("http", (String) hostPorts[i], (Integer) hostPorts[i + 1]));
        }
        return new Announcement("aggregator", atMs, endpoints);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
