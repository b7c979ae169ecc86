package io.healthmesh.cli.demo;

import io.healthmesh.cli.CliRun;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's start checks that need no broker. */
class DemoCommandTest {

    @Test
    void aTakenPortIsARuntimeFailureThatSaysWhatToDo() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CliRun run = CliRun.of("demo", "--kafka-port", Integer.toString(taken.getLocalPort()),
                    "--registry-port", "0");
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).startsWith("error: port " + taken.getLocalPort()
                    + " on 127.0.0.1 is in use (another demo or Kafka?); stop it, or pass --kafka-port 0 for a free port");
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void aPortOutOfRangeIsBadUsage() {
        CliRun run = CliRun.of("demo", "--registry-port", "-1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("(expected: 0..65535)", "Usage: healthmesh demo");
    }
}
