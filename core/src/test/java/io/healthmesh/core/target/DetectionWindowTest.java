package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The worked examples of SPEC section 5 (000, 001, 003) and the L4 fixed-rate window. */
class DetectionWindowTest {

    private static TargetSpec http(int intervalMs, int timeoutMs, int healthy, int unhealthy) {
        return TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.HTTP)
                .withTiming(intervalMs, timeoutMs).withThresholds(healthy, unhealthy);
    }

    @Test
    void clb000Takes16sToUnhealthyAnd13sToHealthyWithOneSecondAnswers() {
        DetectionWindow w = DetectionWindow.of(http(5_000, 2_000, 3, 3), Duration.ofSeconds(1));
        assertThat(w.toUnhealthy()).isEqualTo(Duration.ofSeconds(16));
        assertThat(w.toHealthy()).isEqualTo(Duration.ofSeconds(13));
        assertThat(w.unhealthyFormula()).isEqualTo("timeout x unhealthyThreshold + interval x (unhealthyThreshold - 1)"
                + " = 2 s x 3 + 5 s x 2 = 16 s (L7 fixed delay, every probe times out)");
        assertThat(w.healthyFormula()).isEqualTo("responseTime x healthyThreshold + interval x (healthyThreshold - 1)"
                + " = 1 s x 3 + 5 s x 2 = 13 s (L7 fixed delay, every probe answers in 1 s)");
    }

    @Test
    void edgeOne001Takes75sToUnhealthy() {
        DetectionWindow w = DetectionWindow.of(http(30_000, 5_000, 3, 3), Duration.ZERO);
        assertThat(w.toUnhealthy()).isEqualTo(Duration.ofSeconds(75));
    }

    @Test
    void globalAccelerator003Takes13sToUnhealthy() {
        // 003: interval 2 s, its fixed 3 s timeout, threshold 3 -> 3x3 + 2x2. The timeout is above the interval,
        // which the validator refuses for definitions; the arithmetic is still the one SPEC quotes.
        TargetSpec spec003 = new TargetSpec("t", "g", "10.0.0.1", 80, Protocol.HTTPS, 2_000, 3_000, 3, 3, true, 10,
                null, null, null, null, null, null, 1);
        assertThat(DetectionWindow.of(spec003, Duration.ZERO).toUnhealthy()).isEqualTo(Duration.ofSeconds(13));
    }

    @Test
    void layer4IsIntervalTimesThresholdMinusOneAfterTheFirstFailingProbe() {
        TargetSpec tcp = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP)
                .withTiming(5_000, 2_000).withThresholds(2, 3);
        DetectionWindow w = DetectionWindow.of(tcp, Duration.ofSeconds(1));
        assertThat(w.toUnhealthy()).isEqualTo(Duration.ofSeconds(10));
        assertThat(w.toHealthy()).isEqualTo(Duration.ofSeconds(5));
        assertThat(w.unhealthyFormula())
                .isEqualTo("interval x (unhealthyThreshold - 1) = 5 s x 2 = 10 s after the first failing probe (L4 fixed rate)");
        assertThat(w.healthyFormula())
                .isEqualTo("interval x (healthyThreshold - 1) = 5 s x 1 = 5 s after the first succeeding probe (L4 fixed rate)");
    }

    @Test
    void thresholdOneFlipsOnTheFirstProbe() {
        TargetSpec udp = TargetSpec.of("t", "g", "10.0.0.1", 53, Protocol.UDP).withThresholds(1, 1);
        DetectionWindow w = DetectionWindow.of(udp, Duration.ZERO);
        assertThat(w.toUnhealthy()).isZero();
        assertThat(w.toHealthy()).isZero();
    }

    @Test
    void subSecondFiguresKeepTheirFraction() {
        DetectionWindow w = DetectionWindow.of(http(1_500, 250, 2, 2), Duration.ofMillis(100));
        assertThat(w.toUnhealthy()).isEqualTo(Duration.ofMillis(2_000));
        assertThat(w.unhealthyFormula()).contains("0.25 s x 2 + 1.5 s x 1 = 2 s");
        assertThat(w.healthyFormula()).contains("0.1 s x 2 + 1.5 s x 1 = 1.7 s");
    }

    @Test
    void negativeResponseTimeIsRefused() {
        assertThatThrownBy(() -> DetectionWindow.of(http(5_000, 2_000, 3, 3), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("responseTime: PT-0.001S (expected: 0 or more)");
    }
}
