package io.healthmesh.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The failure text of a read that timed out: it must say what was read, so a flaky failure can be diagnosed. */
class TopicReadsTest {

    @Test
    void describesEachRecordWithItsPlaceKeyValueAndHeaders() {
        ConsumerRecord<String, byte[]> rejected = new ConsumerRecord<>("t", 1, 7, "api-1",
                "not avro".getBytes(StandardCharsets.UTF_8));
        rejected.headers().add("healthmesh.reason", "UNKNOWN_TARGET".getBytes(StandardCharsets.UTF_8));

        assertThat(TopicReads.describe(List.of(rejected)))
                .isEqualTo("\n  1@7 api-1 = not avro [healthmesh.reason=UNKNOWN_TARGET]");
    }

    @Test
    void keepsTheLastFortyRecordsAndCutsLongValues() {
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            read.add(new ConsumerRecord<>("t", 0, i, "k" + i, i == 44 ? "x".repeat(500) : "v" + i));
        }

        String text = TopicReads.describe(read);

        assertThat(text).startsWith("(the first 5 left out) \n  0@5 k5 = v5");
        assertThat(text).doesNotContain("k4 ");
        assertThat(text).endsWith("0@44 k44 = " + "x".repeat(200) + "...");
    }
}
