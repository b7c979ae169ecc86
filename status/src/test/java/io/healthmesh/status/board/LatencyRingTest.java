package io.healthmesh.status.board;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyRingTest {

    private static LatencyPoint point(long atMs) {
        return new LatencyPoint(atMs, atMs * 10, atMs % 2 == 0);
    }

    @Test
    void keepsTheNewestPointsOldestFirstAcrossManyWraps() {
        LatencyRing ring = new LatencyRing(3);
        assertThat(ring.isEmpty()).isTrue();
        assertThat(ring.toList()).isEmpty();

        ring.add(point(1));
        ring.add(point(2));
        assertThat(ring.toList()).containsExactly(point(1), point(2));
        assertThat(ring.lastAtMs()).isEqualTo(2);

        for (long at = 3; at <= 11; at++) {
            ring.add(point(at));
        }
        assertThat(ring.toList()).containsExactly(point(9), point(10), point(11));
        assertThat(ring.lastAtMs()).isEqualTo(11);
    }

    @Test
    void growsAsPointsComeUpToItsCapacityAndWrapsInOrderAfterwards() {
        LatencyRing ring = new LatencyRing(10);
        assertThat(ring.allocated()).isEqualTo(4);
        for (long at = 1; at <= 4; at++) {
            ring.add(point(at));
        }
        assertThat(ring.allocated()).isEqualTo(4);
        ring.add(point(5));
        assertThat(ring.allocated()).isEqualTo(8);
        for (long at = 6; at <= 9; at++) {
            ring.add(point(at));
        }
        assertThat(ring.allocated()).as("doubled, but never past the capacity").isEqualTo(10);
        for (long at = 10; at <= 23; at++) {
            ring.add(point(at));
        }
        assertThat(ring.allocated()).isEqualTo(10);
        assertThat(ring.toList()).extracting(LatencyPoint::atMs).containsExactly(14L, 15L, 16L, 17L, 18L, 19L, 20L,
                21L, 22L, 23L);
        assertThat(ring.lastAtMs()).isEqualTo(23);
    }

    @Test
    void aFailedPointKeepsItsLatencyAndItsWireForm() {
        LatencyRing ring = new LatencyRing(1);
        ring.add(new LatencyPoint(5, 700, false));
        ring.add(new LatencyPoint(6, 800, false));

        assertThat(ring.toList()).singleElement().satisfies(p -> {
            assertThat(p).isEqualTo(new LatencyPoint(6, 800, false));
            assertThat(p.wire()).isEqualTo(-801);
        });
    }

    @Test
    void refusesNoCapacityAndAnEmptyRingHasNoLastPoint() {
        assertThatThrownBy(() -> new LatencyRing(0)).hasMessage("capacity: 0 (expected: at least 1)");
        assertThatThrownBy(() -> new LatencyRing(2).lastAtMs()).isInstanceOf(IllegalStateException.class);
    }
}
