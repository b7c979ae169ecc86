package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.CliRun;
import io.healthmesh.core.target.QuorumPolicy;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The parts of {@code replay} that need no broker: times, quorum, and inputs refused before any read. */
class ReplayCommandTest {

    private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

    @Test
    void timesAreInstantsOrDurationsAgo() {
        assertThat(ReplayCommand.time("--from", "2026-12-01T08:00:00Z", NOW))
                .isEqualTo(Instant.parse("2026-12-01T08:00:00Z").toEpochMilli());
        assertThat(ReplayCommand.time("--from", "30m", NOW)).isEqualTo(NOW.minusSeconds(1_800).toEpochMilli());
        assertThat(ReplayCommand.time("--to", "PT1H", NOW)).isEqualTo(NOW.minusSeconds(3_600).toEpochMilli());
        assertThatThrownBy(() -> ReplayCommand.time("--from", "yesterday", NOW))
                .isInstanceOf(BadInputException.class)
                .hasMessage("--from: yesterday (expected: an instant such as 2026-12-01T08:00:00Z or a duration ago "
                        + "such as 30m)");
    }

    @Test
    void quorumPolicies() {
        assertThat(ReplayCommand.quorum("all")).isEqualTo(new QuorumRule(QuorumPolicy.ALL, 1));
        assertThat(ReplayCommand.quorum("AT_LEAST:2")).isEqualTo(new QuorumRule(QuorumPolicy.AT_LEAST, 2));
        for (String bad : new String[] {"SOME", "AT_LEAST", "AT_LEAST:0", "AT_LEAST:x"}) {
            assertThatThrownBy(() -> ReplayCommand.quorum(bad)).isInstanceOf(BadInputException.class)
                    .hasMessage("--quorum: " + bad + " (expected: ANY, MAJORITY, ALL or AT_LEAST:K with K >= 1)");
        }
    }

    @Test
    void badSettingsAreRefusedBeforeAnyRead() {
        // no broker listens on port 1: each of these must fail on its input, not on the connection
        CliRun thresholds = CliRun.of("replay", "--bootstrap-server", "127.0.0.1:1", "--healthy", "11");
        assertThat(thresholds.exitCode()).isEqualTo(2);
        assertThat(thresholds.err()).contains("error: --healthy: 11 (expected: 1..10)");

        CliRun order = CliRun.of("replay", "--bootstrap-server", "127.0.0.1:1", "--from", "2026-12-01T09:00:00Z",
                "--to", "2026-12-01T08:00:00Z");
        assertThat(order.exitCode()).isEqualTo(2);
        assertThat(order.err()).contains("error: --from: 2026-12-01T09:00:00Z (expected: before --to "
                + "2026-12-01T08:00:00Z)");

        CliRun factor = CliRun.of("replay", "--bootstrap-server", "127.0.0.1:1", "--staleness-factor", "0.5");
        assertThat(factor.exitCode()).isEqualTo(2);
        assertThat(factor.err()).contains("error: --staleness-factor: 0.5 (expected: 1..100)");
    }
}
