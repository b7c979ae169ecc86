package io.healthmesh.bench;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.core.target.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadDriverTest {

    private static LoadDriver parsed(String... args) {
        LoadDriver driver = new LoadDriver();
        new CommandLine(driver).parseArgs(args);
        driver.applyModeDefaults();
        return driver;
    }

    @Test
    void bothModesMeasureTcpFirst() {
        // HTTP first was tried in the short mode and read no closer to the full run
        assertThat(parsed().protocolOrder).containsExactly(Protocol.TCP, Protocol.HTTP);
        assertThat(parsed("--short").protocolOrder).containsExactly(Protocol.TCP, Protocol.HTTP);
    }

    @Test
    void theShortModeProbesAtTheFullRatesUnlessTold() {
        // at lower rates the TCP ratio reads above the full run's: the prober's costs per second are shared by fewer
        // probes (docs/BENCHMARKS.md, "The short mode")
        assertThat(parsed().tcpTargets).isEqualTo(16_000);
        assertThat(parsed().httpTargets).isEqualTo(8_000);
        assertThat(parsed("--short").tcpTargets).isEqualTo(16_000);
        assertThat(parsed("--short").httpTargets).isEqualTo(8_000);
        assertThat(parsed("--short", "--tcp-targets", "8000", "--http-targets", "4000").tcpTargets).isEqualTo(8_000);
        assertThat(parsed("--short", "--tcp-targets", "8000", "--http-targets", "4000").httpTargets).isEqualTo(4_000);
    }

    @Test
    void theFullModeMeasuresDetectionOnWarmJvmsAndTheShortModeOnlyWhenTold() {
        // a first round and the JIT gate cost about a minute (docs/BENCHMARKS.md, "What is measured, and how")
        assertThat(parsed().detectRehearsal).isTrue();
        assertThat(parsed().detectJitMillis).isEqualTo(50.0);
        assertThat(parsed("--short").detectRehearsal).isFalse();
        assertThat(parsed("--short").detectJitMillis).isZero();
        assertThat(parsed("--short", "--detect-rehearsal", "--detect-jit-ms-per-s", "80").detectRehearsal).isTrue();
        assertThat(parsed("--short", "--detect-rehearsal", "--detect-jit-ms-per-s", "80").detectJitMillis)
                .isEqualTo(80.0);
        assertThat(parsed("--no-detect-rehearsal").detectRehearsal).isFalse();
    }

    @Test
    void theShortModeWaitsForQuieterCompilersUnlessTold() {
        // with the full mode's limit the short mode's TCP warm-up settled with its compilers busy and its ratio read
        // high (docs/BENCHMARKS.md, "The short mode")
        assertThat(parsed().warmupJitMillis).isEqualTo(20.0);
        assertThat(parsed("--short").warmupJitMillis).isEqualTo(10.0);
        assertThat(parsed("--short", "--warmup-jit-ms-per-s", "20").warmupJitMillis).isEqualTo(20.0);
        assertThatThrownBy(() -> parsed("--warmup-jit-ms-per-s", "-1"))
                .hasMessage("--warmup-jit-ms-per-s must be within 0..2000, not -1");
    }

    @Test
    void theCommitIntervalFollowsTheProductsDefault() {
        assertThat(parsed().commitIntervalMs).isEqualTo(AggregatorConfig.DEFAULT_COMMIT_INTERVAL_MS).isEqualTo(50);
        assertThat(parsed("--commit-interval-ms", "100").commitIntervalMs).isEqualTo(100);
    }

    @Test
    void flagsOutOfTheirRangeAreRefusedByName() {
        assertThatThrownBy(() -> parsed("--detect-jit-ms-per-s", "-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--detect-jit-ms-per-s must be within 0..2000, not -1");
        assertThatThrownBy(() -> parsed("--detect-jit-ms-per-s", "NaN"))
                .hasMessageContaining("--detect-jit-ms-per-s");
        assertThatThrownBy(() -> parsed("--detect-jit-wait-max-s", "0"))
                .hasMessage("--detect-jit-wait-max-s must be within 1..3600, not 0");
        assertThatThrownBy(() -> parsed("--commit-interval-ms", "5"))
                .hasMessage("--commit-interval-ms must be within 10..60000, not 5");
        assertThatThrownBy(() -> parsed("--brokers", "2"))
                .hasMessage("--brokers must be 1 or 3, not 2");
        assertThat(parsed().brokers).isEqualTo(1);
        assertThat(parsed("--brokers", "3").brokers).isEqualTo(3);
        assertThat(parsed("--detect-jit-ms-per-s", "0").detectJitMillis).isZero();
        assertThat(parsed("--detect-jit-ms-per-s", "12.5").detectJitMillis).isEqualTo(12.5);
    }

    @Test
    void anOrderGivenIsKeptWithoutRepeats() {
        assertThat(parsed("--short", "--protocol-order", "TCP,HTTP,TCP").protocolOrder)
                .containsExactly(Protocol.TCP, Protocol.HTTP);
        assertThat(parsed("--protocol-order", "HTTP").protocolOrder).containsExactly(Protocol.HTTP);
    }

    @Test
    void aProtocolWithoutAThroughputPhaseIsRefusedByName() {
        assertThatThrownBy(() -> parsed("--protocol-order", "TCP,UDP"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--protocol-order")
                .hasMessageContaining("UDP");
    }

    @Test
    void dropsTheAggregatorsStateButKeepsTheLogs(@TempDir Path work) throws IOException {
        Files.createDirectories(work.resolve("aggregator-state/bench-aggregator/0_1/rocksdb"));
        Files.writeString(work.resolve("aggregator-state/bench-aggregator/0_1/rocksdb/000001.sst"), "sst");
        Files.createDirectories(work.resolve("aggregator-state-2/bench-aggregator"));
        Files.createDirectories(work.resolve("haproxy-TCP"));
        Files.writeString(work.resolve("aggregator.log"), "log");
        Files.writeString(work.resolve("aggregator-state-notes"), "a file, not a state directory");

        LoadDriver.dropAggregatorState(work);

        assertThat(work.resolve("aggregator-state")).doesNotExist();
        assertThat(work.resolve("aggregator-state-2")).doesNotExist();
        assertThat(work.resolve("haproxy-TCP")).isDirectory();
        assertThat(work.resolve("aggregator.log")).hasContent("log");
        assertThat(work.resolve("aggregator-state-notes")).exists();
    }
}
