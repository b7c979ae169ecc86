package io.healthmesh.probe.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HttpResponseJudgeTest {

    @Test
    void aSuccessfulChecksDetailIsTheStatusWhateverItsValueAndTheCommonOnesAreShared() {
        for (int status : new int[] {0, 100, 200, 204, 399, 599, 999, 1000, 65_535, -1}) {
            assertThat(HttpResponseJudge.statusDetail(status)).isEqualTo("status " + status);
        }
        assertThat(HttpResponseJudge.statusDetail(200)).isSameAs(HttpResponseJudge.statusDetail(200));
    }
}
