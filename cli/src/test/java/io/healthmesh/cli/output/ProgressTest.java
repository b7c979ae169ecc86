package io.healthmesh.cli.output;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {

    @Test
    void drawsABarAndCountsTheRateFromTheFirstRecord() {
        AtomicLong nanos = new AtomicLong();
        StringWriter text = new StringWriter();
        Progress progress = new Progress(new PrintWriter(text), "reading", "read", "results", 4, nanos::get);
        nanos.set(2_000_000_000L); // two seconds connecting: not part of the rate
        for (int i = 0; i < 4; i++) {
            progress.advance();
            nanos.addAndGet(500_000_000L);
        }
        progress.finish();

        assertThat(progress.rate()).isEqualTo(2);
        assertThat(text.toString()).contains("reading results [" + "#".repeat(30) + "] 100% 4/4")
                .contains("read 4 records of results in 4.0 s (2 records/s from the first record)");
    }
}
