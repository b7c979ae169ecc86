package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChildJvmTest {

    @Test
    void readsTheLiveHeapFromTheHistogramTotal() {
        String histogram = """
                12345:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:        111580       11261304  [B (java.base@17.0.15)
                   2:        105474        2531376  java.lang.String (java.base@17.0.15)
                Total        217054       13792680
                """;
        assertThat(ChildJvm.parseHistogramTotal(histogram)).isEqualTo(13_792_680L);
        assertThatThrownBy(() -> ChildJvm.parseHistogramTotal("12345:\n"))
                .hasMessage("class histogram without a Total line");
    }
}
