package io.healthmesh.haproxy.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.healthmesh.haproxy.plan.ServerState.DRAIN;
import static io.healthmesh.haproxy.plan.ServerState.MAINT;
import static io.healthmesh.haproxy.plan.ServerState.READY;
import static org.assertj.core.api.Assertions.assertThat;

class ServerDiffTest {

    private static DesiredServer want(String name, String address, int weight, ServerState state) {
        return new DesiredServer(name, name, address, 8080, weight, state);
    }

    private static ActualServer held(String name, String address, int weight, ServerState state) {
        return new ActualServer(name, address, null, 8080, weight, state);
    }

    private static DesiredBackend backend(DesiredServer... servers) {
        return new DesiredBackend("be", "g", List.of(servers), List.of());
    }

    private static List<String> commands(List<ServerChange> changes) {
        return changes.stream().flatMap(c -> c.commands().stream()).toList();
    }

    @Test
    void aBackendThatHoldsWhatItShouldGetsNoCommand() {
        DesiredBackend desired = backend(want("a", "10.0.0.1", 10, READY), want("b", "::1", 5, MAINT));
        List<ActualServer> actual = List.of(held("a", "10.0.0.1", 10, READY), held("b", "0:0:0:0:0:0:0:1", 5, MAINT));

        assertThat(ServerDiff.of(desired, actual)).isEmpty();
    }

    @Test
    void aNewMemberIsAddedAndSetReadyOnlyWhenServed() {
        List<ServerChange> changes = ServerDiff.of(backend(want("a", "10.0.0.1", 10, READY),
                want("b", "fd00::2", 3, MAINT)), List.of());

        assertThat(commands(changes)).containsExactly(
                "add server be/a 10.0.0.1:8080 weight 10", "set server be/a state ready",
                "add server be/b [fd00::2]:8080 weight 3");
        assertThat(changes).noneMatch(ServerChange::takesOut);
    }

    @Test
    void stateChangesMoveStraightToTheDesiredStateAndOnlyTakingOutCounts() {
        List<ServerChange> changes = ServerDiff.of(
                backend(want("a", "10.0.0.1", 10, MAINT), want("b", "10.0.0.2", 10, READY),
                        want("c", "10.0.0.3", 10, DRAIN)),
                List.of(held("a", "10.0.0.1", 10, READY), held("b", "10.0.0.2", 10, MAINT),
                        held("c", "10.0.0.3", 10, READY)));

        assertThat(changes).extracting(ServerChange::server, ServerChange::takesOut).containsExactly(
                org.assertj.core.groups.Tuple.tuple("b", false), org.assertj.core.groups.Tuple.tuple("a", true),
                org.assertj.core.groups.Tuple.tuple("c", true));
        assertThat(commands(changes)).containsExactly("set server be/b state ready", "set server be/a state maint",
                "set server be/c state drain");
    }

    @Test
    void aServerNoMemberStandsForGoesToMaintenanceThenIsDeleted() {
        List<ServerChange> changes = ServerDiff.of(backend(want("a", "10.0.0.1", 10, READY)),
                List.of(held("a", "10.0.0.1", 10, READY), held("old", "10.0.0.9", 10, READY),
                        held("older", "10.0.0.8", 10, MAINT)));

        assertThat(commands(changes)).containsExactly("del server be/older", "set server be/old state maint",
                "del server be/old");
        assertThat(changes).extracting(ServerChange::takesOut).containsExactly(false, true);
    }

    @Test
    void weightAndAddressAreSetInPlace() {
        List<ServerChange> changes = ServerDiff.of(backend(want("a", "10.0.0.5", 20, READY)),
                List.of(new ActualServer("a", "10.0.0.1", null, 9090, 10, READY)));

        assertThat(commands(changes)).containsExactly("set server be/a addr 10.0.0.5 port 8080",
                "set server be/a weight 20");
        assertThat(changes.get(0).takesOut()).isFalse();
    }

    @Test
    void aHostNameThatChangedReplacesTheServer() {
        DesiredBackend desired = backend(want("a", "api-2.internal", 10, READY));

        assertThat(ServerDiff.of(desired, List.of(new ActualServer("a", "10.0.0.1", "api-2.internal", 8080, 10,
                READY)))).as("the same host name, resolved").isEmpty();
        assertThat(commands(ServerDiff.of(desired, List.of(new ActualServer("a", "10.0.0.1", "api-1.internal", 8080,
                10, READY))))).containsExactly("set server be/a state maint", "del server be/a");
    }

    @Test
    void applyingTheResultLeavesNothingToDo() {
        DesiredBackend desired = backend(want("a", "10.0.0.1", 10, READY), want("b", "10.0.0.2", 4, MAINT));
        List<ActualServer> before = List.of(held("b", "10.0.0.2", 10, READY), held("c", "10.0.0.3", 10, READY));
        List<ServerChange> first = ServerDiff.of(desired, before);
        assertThat(first).isNotEmpty();

        // what HAProxy holds after the commands
        List<ActualServer> after = List.of(held("a", "10.0.0.1", 10, READY), held("b", "10.0.0.2", 4, MAINT));
        assertThat(ServerDiff.of(desired, after)).isEmpty();
    }
}
