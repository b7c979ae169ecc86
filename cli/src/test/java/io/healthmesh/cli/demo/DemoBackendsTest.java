package io.healthmesh.cli.demo;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class DemoBackendsTest {

    @Test
    void demoTargetsAreValidCoverHttpTcpUdpAndGroupTheFragileOnes(@TempDir Path dir) throws Exception {
        try (DemoBackends backends = DemoBackends.start(new SwitchTest.ManualClock(), dir.resolve("ports"))) {
            List<TargetSpec> targets = backends.targets();
            assertThat(targets).allSatisfy(t -> assertThat(TargetValidator.validate(t)).isEmpty());
            assertThat(targets.stream().map(TargetSpec::protocol).collect(Collectors.toSet()))
                    .isEqualTo(Set.of(Protocol.HTTP, Protocol.TCP, Protocol.UDP));
            assertThat(targets.stream().filter(t -> t.group().equals("demo-fragile")).map(TargetSpec::id))
                    .containsExactlyInAnyOrder("fragile-http", "fragile-tcp");
            assertThat(backends.describe()).anySatisfy(line -> assertThat(line).contains("web-flaky", "up 20 s / down 12 s"));
            assertThat(targets.stream().map(TargetSpec::profile).collect(Collectors.toSet()))
                    .as("one target per profile").containsExactlyInAnyOrder(io.healthmesh.core.target.TargetProfile.values());
        }
    }

    @Test
    void aRestartOnTheSameDirectoryReusesThePortsSoTargetsKeepTheirGeneration(@TempDir Path dir) throws Exception {
        Path ports = dir.resolve("ports");
        List<TargetSpec> first;
        try (DemoBackends backends = DemoBackends.start(new SwitchTest.ManualClock(), ports)) {
            first = backends.targets();
        }
        assertThat(Files.readString(ports)).contains("http=", "tcp=", "tcp.fragile=", "udp=");
        try (DemoBackends again = DemoBackends.start(new SwitchTest.ManualClock(), ports)) {
            assertThat(again.targets()).isEqualTo(first);
        }
    }
}
