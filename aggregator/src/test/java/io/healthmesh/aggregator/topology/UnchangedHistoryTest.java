package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A result that changes a target's state but adds nothing to its history does not rewrite the history entry. */
class UnchangedHistoryTest {

    @TempDir
    Path stateDir;
    private AggregatorDriver d;

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void anInconclusiveResultWritesTheStateButNotTheHistory() {
        d = new AggregatorDriver(stateDir);
        String app = d.config.applicationId();
        TestOutputTopic<byte[], byte[]> historyChangelog = d.driver.createOutputTopic(
                app + "-" + AggregatorTopology.HISTORY_STORE + "-changelog", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        TestOutputTopic<byte[], byte[]> stateChangelog = d.driver.createOutputTopic(
                app + "-" + AggregatorTopology.TARGET_STORE + "-changelog", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        TargetSpec spec = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP);
        d.at(0).define(spec);
        d.at(1).result(spec, "default", Outcome.SUCCESS, 5);
        assertThat(historyChangelog.readRecordsToList()).as("created, then a result applied").isNotEmpty();
        stateChangelog.readRecordsToList();

        d.at(2).result(spec, "default", Outcome.INCONCLUSIVE, 5);
        assertThat(stateChangelog.readRecordsToList()).as("the region counts the inconclusive result").isNotEmpty();
        assertThat(historyChangelog.readRecordsToList()).as("nothing added to the history").isEmpty();

        d.at(3).result(spec, "default", Outcome.SUCCESS, 5);
        assertThat(historyChangelog.readRecordsToList()).as("an applied result is recorded: its own row, no head")
                .hasSize(1);
        assertThat(stateChangelog.readRecordsToList()).as("the state, with the ring's next number").hasSize(1);
    }
}
