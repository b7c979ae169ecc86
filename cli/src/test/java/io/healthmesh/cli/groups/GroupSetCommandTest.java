package io.healthmesh.cli.groups;

import io.healthmesh.cli.CliRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code groups set} refuses a policy the aggregator would reject before it connects to anything (the bootstrap
 * server here does not exist): exit 2 and the rule.
 */
class GroupSetCommandTest {

    private static CliRun set(String... flags) {
        String[] args = new String[flags.length + 4];
        args[0] = "groups";
        args[1] = "set";
        System.arraycopy(flags, 0, args, 2, flags.length);
        args[flags.length + 2] = "--bootstrap-server";
        args[flags.length + 3] = "127.0.0.1:1";
        return CliRun.of(args);
    }

    @Test
    void aPolicyWithoutBoundOrOutOfRangeIsRefusedBeforeAnythingIsWritten() {
        CliRun none = set("pool");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("nothing was written", "both absent");

        CliRun zero = set("pool", "--min-healthy-percent", "0");
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("minHealthyPercent: 0 (expected: 1..100)");

        CliRun margin = set("pool", "--min-healthy-count", "3", "--leave-margin-count", "10001");
        assertThat(margin.exitCode()).isEqualTo(2);
        assertThat(margin.err()).contains("leaveMarginCount: 10001 (expected: 0..10000)");

        CliRun control = set("po\u0007ol", "--min-healthy-count", "3");
        assertThat(control.exitCode()).isEqualTo(2);
        assertThat(control.err()).contains("groupId: contains a control character");
    }
}
